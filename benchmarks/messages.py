"""What a typed `table.state` costs on the move path, by the kind of type.

Run: .venv/bin/python benchmarks/messages.py [--frames 20000] [--repeats 9]

The move path builds one `table.state` per socket of a table from parts made once per
version (the view's shared part and each seat's own, the events, as JSON bytes) and the
socket serialises it (app.services.fanout.snapshot, app.api.ws). Each kind builds that
frame for a real four-seat Goat position, seat after seat, and encodes it as the socket
would:

- dict: the frame as a plain dict literal, orjson (the code before typed messages);
- TypedDict: app.wire.messages.TableState, the same literal under a type, orjson;
- msgspec: a `msgspec.Struct` with `msgspec.Raw` parts, msgspec's encoder;
- pydantic: a `BaseModel` made by validation (the parts as `orjson.Fragment`), dumped to
  a dict and written by orjson (pydantic cannot write a fragment itself);
- pydantic-construct: the same model made without validation (`model_construct`).

The kinds run interleaved (A B C ... A B C ...), so a change of the machine's load falls
on all of them alike; each repeat prints the µs per frame of every kind and the medians
come last, with each kind's ratio to the dict.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.services.fanout.snapshot import Snapshot
from app.services.tables.lobby import Deal, Terms, begin, new_table
from app.services.tables.table import Person
from app.services.tables.transact import now_ms, seal
from app.wire.messages import TableState

SEATS = 4


def _parts() -> tuple[str, int, bytes, list[bytes], bytes]:
    """A started four-seat Goat table's id, version, the views' shared part, each seat's
    own part and the events, as the move path has them (bytes made once per version)."""
    people = tuple(Person(n + 1, f"player{n}") for n in range(SEATS))
    waiting = replace(new_table("a1b2c3d4e5f60718", people[0], Terms("goat", SEATS), people,
                                now_ms()), version=1)
    step = begin(waiting, Deal.fresh())
    table = seal(waiting, step, now_ms()).table
    snapshot = Snapshot(table, set(range(SEATS)), step.game)
    announcement = snapshot.announcement()  # makes every part once, as the writer does
    assert announcement.parts
    shared = snapshot._shared()
    own = [snapshot._own_part(seat) for seat in range(SEATS)]
    events = snapshot._events_since(table.version - 1)[0]
    return table.id, table.version, shared, own, events


def kinds() -> dict[str, Callable[[], Callable[[int], bytes]]]:
    table_id, seq, shared, own, events = _parts()

    def plain() -> Callable[[int], bytes]:
        events_part = orjson.Fragment(events)

        def frame(seat: int) -> bytes:
            message: dict[str, Any] = {
                "type": "table.state", "table_id": table_id, "seq": seq,
                "view": orjson.Fragment(shared + own[seat]), "events": events_part,
                "server_time": now_ms(),
            }
            return orjson.dumps(message)
        return frame

    def typed() -> Callable[[int], bytes]:
        events_part = orjson.Fragment(events)

        def frame(seat: int) -> bytes:
            message: TableState = {
                "type": "table.state", "table_id": table_id, "seq": seq,
                "view": orjson.Fragment(shared + own[seat]), "events": events_part,
                "server_time": now_ms(),
            }
            return orjson.dumps(message)
        return frame

    def structs() -> Callable[[int], bytes]:
        import msgspec

        class State(msgspec.Struct, tag_field="type", tag="table.state"):
            table_id: str
            seq: int
            view: msgspec.Raw
            events: msgspec.Raw
            server_time: int

        encode = msgspec.json.Encoder().encode
        events_part = msgspec.Raw(events)

        def frame(seat: int) -> bytes:
            return encode(State(table_id, seq, msgspec.Raw(shared + own[seat]), events_part,
                                now_ms()))
        return frame

    def model(validated: bool) -> Callable[[], Callable[[int], bytes]]:
        def make() -> Callable[[int], bytes]:
            from typing import Literal

            from pydantic import BaseModel, ConfigDict

            class State(BaseModel):
                model_config = ConfigDict(arbitrary_types_allowed=True)
                type: Literal["table.state"] = "table.state"
                table_id: str
                seq: int
                view: orjson.Fragment
                events: orjson.Fragment
                server_time: int

            events_part = orjson.Fragment(events)
            build = State if validated else State.model_construct

            def frame(seat: int) -> bytes:
                state = build(table_id=table_id, seq=seq,
                              view=orjson.Fragment(shared + own[seat]),
                              events=events_part, server_time=now_ms())
                return orjson.dumps(state.model_dump())
            return frame
        return make

    made: dict[str, Callable[[], Callable[[int], bytes]]] = {
        "dict": plain, "TypedDict": typed}
    try:
        import msgspec  # noqa: F401
        made["msgspec"] = structs
    except ImportError:
        print("msgspec is not installed: its kind is left out", file=sys.stderr)
    made["pydantic"] = model(True)
    made["pydantic-construct"] = model(False)
    return made


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=20000, help="frames per kind and repeat")
    parser.add_argument("--repeats", type=int, default=9)
    args = parser.parse_args()
    frames = {name: make() for name, make in kinds().items()}
    sent = {name: orjson.loads(frame(0)) for name, frame in frames.items()}
    reference = sent["dict"]
    for name, message in sent.items():  # every kind sends the same frame
        assert {k: v for k, v in message.items() if k != "server_time"} \
            == {k: v for k, v in reference.items() if k != "server_time"}, name
    results: dict[str, list[float]] = {name: [] for name in frames}
    for repeat in range(args.repeats):
        line = []
        for name, frame in frames.items():
            start = time.process_time_ns()
            for n in range(args.frames):
                frame(n % SEATS).decode()  # the socket sends text
            micros = (time.process_time_ns() - start) / 1000 / args.frames
            results[name].append(micros)
            line.append(f"{name} {micros:.3f}")
        print(f"repeat {repeat + 1}: " + ", ".join(line) + " µs per frame", flush=True)
    base = statistics.median(results["dict"])
    for name, values in results.items():
        median = statistics.median(values)
        print(f"median {name}: {median:.3f} µs per frame ({median / base:.2f}x dict)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
