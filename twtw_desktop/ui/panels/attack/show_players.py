"""What the players' screen is shown (the card, the throw) and the stray-shot rings."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ....play.attack import (
    AttackPlan,
    Outcome,
)
from ....play.attack_request import corridor
from .._common import find_map_view
from .host import AttackHost


class ShowPlayersRow(QWidget):
    """What the players' screen is shown (the card, the throw) and the stray-shot rings."""

    def __init__(self, panel: AttackHost) -> None:
        super().__init__()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(4)
        row2 = QHBoxLayout()
        row2.setSpacing(3)
        self.show_card_button = QToolButton()
        self.show_card_button.setText("card")
        self.show_card_button.setToolTip("Show the players the drawn card (their screen)")
        self.show_card_button.clicked.connect(panel.show_card)
        self.show_scatter_button = QToolButton()
        self.show_scatter_button.setText("throw")
        self.show_scatter_button.setToolTip(
            "Show the players the throw: thrower, target and where it landed (their screen)"
        )
        self.show_scatter_button.clicked.connect(panel.show_scatter)
        self.clear_flags_button = QToolButton()
        self.clear_flags_button.setText("Clear rings")
        self.clear_flags_button.setToolTip("Take the unintended-target rings off the map")
        self.clear_flags_button.clicked.connect(panel.clear_stray_flags)
        row2.addWidget(QLabel("Show players:"))
        row2.addWidget(self.show_card_button)
        row2.addWidget(self.show_scatter_button)
        row2.addStretch(1)
        row2.addWidget(self.clear_flags_button)
        lay.addLayout(row2)


# ======================================================================= the map
def _overlays(panel: AttackHost):
    return getattr(find_map_view(panel.document), "overlays", None)


def _token_ids(panel: AttackHost, keys) -> list[str]:
    """Token ids for a list of token or character ids."""
    out = []
    for key in keys:
        try:
            out.append(panel.document.token(key).id)
            continue
        except KeyError:
            pass
        tok = panel.document.token_for(key)
        if tok is not None:
            out.append(tok.id)
    return out


def _near_selected_shot(panel: AttackHost, plan: AttackPlan | None) -> list[str]:
    """The figures near the line of fire of the shot on show — the series' shot the
    spends are for (the first before the draw), not every shot of the series — as
    the figures stand now (a figure that walked off the line since the plan is not
    ringed; 000 Ancillary Effects: within one pace of the path of the shot)."""
    if plan is None or plan.mode not in ("ranged",):
        return []
    target = plan.target_token
    if plan.series:
        target = plan.series[min(panel.shot_index, len(plan.series) - 1)].target_token
    doc = panel.document
    try:
        shooter, target = doc.token(plan.shooter_token.id), doc.token(target.id)
    except KeyError:
        return []
    return list(corridor(doc.table, shooter, target)[0])


def _flag_candidates(panel: AttackHost, plan: AttackPlan | None) -> None:
    """Ring the possible unintended targets of the shot on show (000: the Judge
    tells the table before the shot)."""
    ov = panel._overlays()
    if ov is None or not hasattr(ov, "flag_stray_targets"):
        return
    ov.flag_stray_targets(panel._token_ids(_near_selected_shot(panel, plan)))


def _flag_strays(panel: AttackHost, outcome: Outcome) -> None:
    """After Apply: the candidates a stray shot hit, ringed in red until the next
    attack starts."""
    hit: list[str] = []
    for rec in outcome.records:
        if rec.strays is not None:
            hit += list(rec.strays.candidates_hit)
    cands = _near_selected_shot(panel, panel.plan)
    ov = panel._overlays()
    if ov is None or not hasattr(ov, "flag_stray_targets") or not (hit or cands):
        return
    ov.flag_stray_targets(panel._token_ids(cands), hit=panel._token_ids(hit))
    panel._strays_hit_shown = bool(hit)


def clear_stray_flags(panel: AttackHost) -> None:
    """Take the unintended-target rings off the map."""
    panel._strays_hit_shown = False
    ov = panel._overlays()
    if ov is not None and hasattr(ov, "clear_stray_flags"):
        ov.clear_stray_flags()


def show_card(panel: AttackHost) -> bool:
    """Put the card on show (the drawn one, or the last applied) on the players'
    screen."""
    card = panel.card_view.card()
    if card is None:
        return False
    panel.document.show_players("card", card)
    panel.message.note(f"Card {card.number} is on the players' screen.")
    return True


def _scatter_payload(panel: AttackHost):
    out = panel.current.outcome if panel.current is not None else panel.last_outcome
    if out is None or out.landing is None or panel.plan is None:
        return None
    rec = out.record
    if rec.attack_kind != "thrown":
        return None
    try:
        thrower = panel.document.token_for(rec.attacker_id)
        target = panel.document.token_for(rec.target_id)
    except KeyError:
        return None
    if thrower is None or target is None:
        return None
    return (thrower.at, target.at, out.landing)


def show_scatter(panel: AttackHost) -> bool:
    """Put the throw (thrower, target, landing hexes) on the players' screen."""
    payload = panel._scatter_payload()
    if payload is None:
        return False
    panel.document.show_players("scatter", payload)
    panel.message.note("The throw is on the players' screen.")
    return True
