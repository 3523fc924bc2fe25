"""One round of a line game in play, on bit masks (app/engine/playout/)."""

from __future__ import annotations

from collections.abc import Callable

from app.engine.game import Game
from app.engine.layouts import LEFT, RIGHT
from app.engine.playout.rules import LineRules, rules_of
from app.engine.playout.tables import CHUNK, CHUNK_MASK, Tables, special_points, tables

LEAD, LEFT_SIDE, RIGHT_SIDE = -1, 0, 1
SIDE_OF_END = {None: LEAD, LEFT: LEFT_SIDE, RIGHT: RIGHT_SIDE}
FastMove = tuple[int, int]
# The seat after and the seat before each seat, by the number of players.
_AFTER = {n: tuple((s + 1) % n for s in range(n)) for n in range(1, 9)}
_BEFORE = {n: tuple((s - 1) % n for s in range(n)) for n in range(1, 9)}


def _nth_bit(mask: int, n: int) -> int:
    """The id of the n-th (0-based, lowest first) set bit of `mask`."""
    for _ in range(n):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


class Round:
    """One round of a line game in play, on bit masks (see the module's docstring)."""

    __slots__ = (
        "bazaar",
        "by",
        "down",
        "fish_rule",
        "hand_points",
        "hands",
        "kind",
        "last_placer",
        "left",
        "players",
        "required_lead",
        "right",
        "t",
        "turn",
    )

    def __init__(
        self,
        t: Tables,
        rules: LineRules,
        hands: list[int],
        bazaar: list[int],
        turn: int,
        hand_points: Callable[[int], int],
    ) -> None:
        self.t = t
        self.fish_rule = rules.closed_number_fish
        self.hand_points = hand_points
        self.players = len(hands)
        self.hands = hands
        self.bazaar = bazaar  # the next draw is the LAST element
        self.left: int = -1  # -1: nothing on the table yet
        self.right: int = -1
        self.down = 0  # the tiles on the table, as a mask
        self.turn = turn
        self.required_lead: int | None = None
        self.last_placer = -1
        self.kind: str | None = None  # "out" | "fish" once the round is over
        self.by = -1

    # ------------------------------------------------------------------ building
    @classmethod
    def from_game(cls, game: Game) -> Round:
        """The round `game` is playing, as it stands (the game must be on a turn)."""
        if game.turn is None or game.status != "playing":
            raise ValueError("the game is not waiting for a placement")
        r = cls(
            tables(game.max_pip),
            rules_of(game),
            list(game.hands),
            game.bazaar[::-1],
            game.turn,
            special_points(game),
        )
        board = game.board
        if board.open:
            r.left, r.right = board.open[LEFT], board.open[RIGHT]
            r.down = game.ts.mask(board.tiles())
        r.required_lead = game.required_lead
        r.last_placer = -1 if game.last_placer is None else game.last_placer
        return r

    def copy(self) -> Round:
        r = Round.__new__(Round)
        r.t, r.fish_rule, r.hand_points, r.players = (
            self.t, self.fish_rule, self.hand_points, self.players
        )
        r.hands = self.hands[:]
        r.bazaar = self.bazaar[:]
        r.left, r.right, r.turn, r.down = self.left, self.right, self.turn, self.down
        r.required_lead = self.required_lead
        r.last_placer, r.kind, r.by = self.last_placer, self.kind, self.by
        return r

    # ------------------------------------------------------------------ play
    def legal(self) -> list[FastMove]:
        """Every placement of the player on turn, (tile id, side); both sides when both fit."""
        if self.kind is not None:
            return []
        hand = self.hands[self.turn]
        if self.left < 0:
            if self.required_lead is not None:
                return [(self.required_lead, LEAD)] if hand >> self.required_lead & 1 else []
            return [(i, LEAD) for i in self.t.ts.members(hand)]
        suits, members = self.t.suits, self.t.ts.members
        return [(i, LEFT_SIDE) for i in members(hand & suits[self.left])] + [
            (i, RIGHT_SIDE) for i in members(hand & suits[self.right])
        ]

    def closed(self, number: int) -> bool:
        """Goat's fish (RULES 1.4): every non-double with `number` is on the table."""
        return (self.down & self.t.plain[number]).bit_count() == self.t.max_pip

    def apply(self, tile: int, side: int) -> None:
        """Place `tile` (which must be legal) for the player on turn; then the forced draws
        and knocks up to the next placement, or the end of the round."""
        t = self.t
        seat = self.turn
        lo, hi = t.low[tile], t.high[tile]
        self.hands[seat] ^= 1 << tile
        self.down |= 1 << tile
        if side == LEAD:
            self.left, self.right = lo, hi
            self.required_lead = None
        elif side == LEFT_SIDE:
            self.left = hi if lo == self.left else lo
        else:
            self.right = hi if lo == self.right else lo
        self.last_placer = seat
        if not self.hands[seat]:
            self.kind, self.by = "out", seat
            return
        if self.fish_rule and self.left == self.right and self.closed(self.left):
            self.kind, self.by = "fish", seat
            return
        self._advance(seat)

    def _advance(self, seat: int) -> None:
        suits, hands, bazaar, players = self.t.suits, self.hands, self.bazaar, self.players
        fits = suits[self.left] | suits[self.right]
        knocks = 0
        while True:
            seat = (seat + 1) % players
            if hands[seat] & fits:
                self.turn = seat
                return
            while bazaar:
                bit = 1 << bazaar.pop()
                hands[seat] |= bit
                if bit & fits:
                    self.turn = seat
                    return
            knocks += 1
            if knocks == players:
                self.kind, self.by = "fish", self.last_placer
                return

    def rollout(self, rnd: Callable[[], float], greedy: float = 0.0) -> None:
        """Play the round to its end: each placement is uniform over the legal ones, or,
        with probability `greedy`, the heaviest playable tile (the "shed the big ones"
        policy, which makes search playouts far more like real play than pure chance).

        `rnd` is a `random.Random().random`; a round not yet led is led at random (or with
        the tile the rules require). This is `apply` and `_advance` unrolled into one loop
        of local variables: it is where search and the benchmarks spend their time."""
        if self.kind is not None:
            return
        t = self.t
        pips, suits, plain, max_pip = t.pips_of, t.suits, t.plain, t.max_pip
        bits, pips_of_bit = t.bits, t.pips_of_bit
        hands, bazaar, players = self.hands, self.bazaar, self.players
        after, before = _AFTER[players], _BEFORE[players]
        fish_rule = self.fish_rule
        left, right, seat, down = self.left, self.right, self.turn, self.down
        last = self.last_placer
        lead_ended = False
        if left < 0:  # the lead: the required tile, or any tile of the hand
            hand = hands[seat]
            tile = self.required_lead
            if tile is None:
                if greedy and rnd() < greedy:
                    tile = max(t.ts.members(hand), key=pips.__getitem__)
                else:
                    tile = _nth_bit(hand, int(rnd() * hand.bit_count()))
            self.required_lead = None
            left, right = t.low[tile], t.high[tile]
            hands[seat] = hand ^ bits[tile]
            down |= bits[tile]
            last = seat
            if not hands[seat]:
                self.kind, self.by = "out", seat
                lead_ended = True
        else:
            seat = before[seat]  # the loop starts by passing the turn on: to the seat on turn
        while not lead_ended:  # the loop leaves by `break` once the round is over
            # the forced draws and knocks up to the next placement (as in _advance)
            fits = suits[left] | suits[right]
            seat = after[seat]
            hand = hands[seat]
            if not hand & fits:
                last = before[seat]  # only a fish needs to know who placed last
                knocks = 0
                while True:
                    drew = False
                    while bazaar:
                        bit = bits[bazaar.pop()]
                        hand |= bit
                        if bit & fits:
                            drew = True
                            break
                    hands[seat] = hand
                    if drew:
                        break
                    knocks += 1
                    if knocks == players:
                        break
                    seat = after[seat]
                    hand = hands[seat]
                    if hand & fits:
                        break
                if knocks == players:
                    self.kind, self.by = "fish", last
                    break
            # the placement
            fl = hand & suits[left]
            fr = hand & suits[right]
            if greedy and rnd() < greedy:
                both = fl | fr
                best = bit = 0
                while both:
                    low_bit = both & -both
                    if pips_of_bit[low_bit] > best or not bit:
                        best, bit = pips_of_bit[low_bit], low_bit
                    both ^= low_bit
                if fl & bit:
                    left = best - left  # its other half: its pips less the end's number
                else:
                    right = best - right
            else:
                nl = fl.bit_count()
                n = int(rnd() * (nl + fr.bit_count()))
                if n < nl:
                    while n:
                        fl &= fl - 1
                        n -= 1
                    bit = fl & -fl
                    left = pips_of_bit[bit] - left
                else:
                    n -= nl
                    while n:
                        fr &= fr - 1
                        n -= 1
                    bit = fr & -fr
                    right = pips_of_bit[bit] - right
            hand ^= bit
            hands[seat] = hand
            down |= bit
            if not hand:
                self.kind, self.by, last = "out", seat, seat
                break
            if left == right and fish_rule and (down & plain[left]).bit_count() == max_pip:
                self.kind, self.by, last = "fish", seat, seat
                break
        self.left, self.right, self.turn, self.down, self.last_placer = (
            left, right, seat, down, last
        )

    # ------------------------------------------------------------------ the end
    def finish(self, game: Game) -> None:
        """End `game`'s round as this one ended (this round must be over and have been
        taken from `game`'s position): the hands and bazaar as they are now, then the
        round's settlement and any game end by the game's own rules (`Game.score_round`)."""
        assert self.kind is not None
        game.hands = list(self.hands)
        game.bazaar = self.bazaar[::-1]
        game.last_placer = self.by
        game.score_round(self.kind, self.by)

    def points(self) -> list[int]:
        """Each hand's points by the variant's rule (0-0's special values included)."""
        special = self.hand_points
        # Only a hand holding 0-0 (id 0) can count differently from its pips.
        if len(self.t.pip_tables) == 2:  # the double-six set: two lookups a hand
            low, high = self.t.pip_tables
            return [special(h) if h & 1 else low[h & CHUNK_MASK] + high[h >> CHUNK]
                    for h in self.hands]
        return [special(h) if h & 1 else self.t.pips(h) for h in self.hands]
