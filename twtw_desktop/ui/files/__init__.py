"""The File menu's rooms: the export to PNG or PDF (its page plan, its painting and
its dialog), Universal VTT import, party files, the character library and the
sample maps."""
