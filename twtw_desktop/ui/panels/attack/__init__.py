"""The attack panel's sections, one idea a file (see :mod:`..attack_panel`)."""
