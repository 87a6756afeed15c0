"""The docs name what the code has: every Socket.IO event the server takes or sends, every error
code with its HTTP status, every REST route, every setting, every ``lounge`` subcommand and
``make`` target the README names, and every key of each game's view. A newcomer finds a
behaviour by its name; these fail when something new is left out of the docs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from backend.api import STATUS
from backend.cli import SUBCOMMANDS
from backend.config import Config
from backend.errors import CODES
from backend.openapi import openapi_document
from backend.schemas import SOCKET_SCHEMAS
from backend.terminal.client import SERVER_EVENTS
from shared_rules import GAMES, new_match

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PROTOCOL = (DOCS / "protocol.md").read_text()
README = (ROOT / "README.md").read_text()


def section(text: str, heading: str) -> str:
    """The text under a ``## heading``, up to the next heading of that level."""
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start:] if end < 0 else text[start:end]


def event_headings(text: str) -> set[str]:
    """The events of ``### `name` ...`` headings."""
    return set(re.findall(r"^### `(\w+)`", text, re.M))


def table_names(text: str) -> set[str]:
    """Every backticked name in the first column of a markdown table."""
    names: set[str] = set()
    for cell in re.findall(r"^\| ([^|]+) \|", text, re.M):
        names.update(re.findall(r"`([^`]+)`", cell))
    return names


def test_every_client_event_has_its_section() -> None:
    assert set(SOCKET_SCHEMAS) <= event_headings(section(PROTOCOL, "Client events"))


def told_events() -> set[str]:
    """The events the server sends: each (connection, event, data) it tells, and each
    broadcast, in the server's sources (the terminal client's excluded)."""
    told = re.compile(r'\((?:None|[\w.]*conn[\w.]*|target), "([a-z_]+)", ')
    broadcast = re.compile(r'(?:broadcast|sockets\.send)\([^,()]+, "([a-z_]+)"')
    found: set[str] = set()
    for path in (ROOT / "backend").rglob("*.py"):
        if "terminal" not in path.parts:
            text = path.read_text()
            found.update(told.findall(text), broadcast.findall(text))
    return found


def test_every_server_event_has_its_section() -> None:
    sent = told_events()
    assert {"room", "state", "closed"} <= sent  # the scan still finds what it looks for
    documented = event_headings(section(PROTOCOL, "Server events"))
    assert sent <= documented
    assert set(SERVER_EVENTS) <= documented  # what the terminal client listens to


def test_the_web_client_listens_only_to_documented_events() -> None:
    source = (ROOT / "frontend" / "src" / "lib" / "connection.ts").read_text()
    heard = set(re.findall(r'socket\.on\("(\w+)"', source)) - {
        "connect", "disconnect", "connect_error"}  # Socket.IO's own
    assert heard and heard <= event_headings(section(PROTOCOL, "Server events"))


def test_every_error_code_is_in_the_table_with_its_status() -> None:
    rows = dict(re.findall(r"^\| `(\w+)` \| (\d{3}) \|", section(PROTOCOL, "Errors"), re.M))
    assert set(rows) == set(CODES)
    assert {code: int(status) for code, status in rows.items()} == STATUS


def api_routes() -> list[tuple[str, str]]:
    """(method, rule) of every REST endpoint but the catch-all."""
    from backend.app import create_app

    app = create_app(Config(DATABASE_URL="memory", ASYNC_MODE="threading"))
    return [(method, rule.rule) for rule in app.url_map.iter_rules()
            if rule.rule.startswith("/api/") and rule.endpoint != "api.unknown"
            for method in sorted(rule.methods - {"HEAD", "OPTIONS"})]


@pytest.fixture(scope="module")
def routes() -> list[tuple[str, str]]:
    return api_routes()


def test_every_route_is_in_the_protocol(routes: list[tuple[str, str]]) -> None:
    missing = []
    for method, rule in routes:
        pattern = re.escape(rule).replace(r"\<", "<").replace(r"\>", ">")
        pattern = re.sub(r"<[^>]+>", "<[^>]+>", pattern)
        if not re.search(pattern + r"(?![\w/])", PROTOCOL):
            missing.append(f"{method} {rule}")
    assert missing == []


def test_every_route_is_in_the_openapi_document(routes: list[tuple[str, str]]) -> None:
    paths = openapi_document()["paths"]
    missing = []
    for method, rule in routes:
        if rule.startswith("/api/debug/"):  # tests only, off unless configured
            continue
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule)
        path = path.replace("{match_id}", "{id}")
        if method.lower() not in paths.get(path, {}):
            missing.append(f"{method} {rule}")
    assert missing == []


def test_every_setting_is_in_the_settings_table() -> None:
    documented = table_names(section(PROTOCOL, "Settings"))
    names = {name for name in Config.__dataclass_fields__}
    assert names - documented == set()


def documented_default(text: str) -> object:
    """A settings table's default as a value (None: not one to compare, e.g. "random")."""
    text = text.strip().strip("`")
    if text in ("on", "off"):
        return text == "on"
    if text in ("none", "unset"):
        return ""
    if re.fullmatch(r"\d+(?:\.\d+)?", text):
        return float(text)
    if "`" not in text and " " not in text and "<" not in text:
        return text
    return None


def code_default(value: object) -> object:
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, tuple):
        return ",".join(value)
    return value


def test_the_settings_tables_give_the_code_defaults() -> None:
    """Each default a settings table gives as a number, a word or ``on``/``off`` is the
    code's."""
    defaults = Config(SECRET_KEY="x" * 32)
    compared = 0
    for doc in (PROTOCOL, (DOCS / "deployment.md").read_text()):
        for names, default in re.findall(r"^\| ((?:`\w+`(?:, )?)+) \| ([^|]+) \|",
                                         section(doc, "Settings"), re.M):
            keys = re.findall(r"`(\w+)`", names)
            values = re.sub(r"\(.*", "", default).split(", ")
            if len(values) != len(keys):
                continue
            for key, text in zip(keys, values, strict=True):
                value = documented_default(text)
                if value is not None:
                    assert value == code_default(getattr(defaults, key)), key
                    compared += 1
    assert compared > 40


def test_every_lounge_subcommand_is_documented() -> None:
    text = README + "".join(p.read_text() for p in DOCS.glob("*.md"))
    assert [name for name in SUBCOMMANDS if f"lounge {name}" not in text] == []


def test_the_readmes_make_targets_exist() -> None:
    makefile = (ROOT / "Makefile").read_text()
    targets = set(re.findall(r"^([\w.-]+):", makefile, re.M))
    named = set(re.findall(r"`make ([a-z][\w-]*)", README))
    named |= set(re.findall(r"^make ([a-z][\w-]*)", README, re.M))
    assert named and named <= targets


def views(slug: str) -> list[dict]:
    """Seat and spectator views along a few random playouts of every table size."""
    import random

    game = GAMES[slug]
    out = []
    for players in range(game.min_players, game.max_players + 1):
        rng = random.Random(players)
        m = new_match(slug, players, seed=players)
        for _ in range(60):
            out += [m.view(None), *(m.view(s) for s in range(players))]
            acting = [s for s in m.active_seats if m.legal_moves(s)]
            if not acting:
                break
            seat = rng.choice(acting)
            move = rng.choice(m.legal_moves(seat))
            m = m.apply(seat, move["move"], *move["args"])
    return out


COMMON = {"game", "seat", "version", "num_players", "current", "stage", "direction", "turn",
          "out", "left", "active_seats", "result"}


def test_the_common_view_fields_are_in_the_engine_reference() -> None:
    reference = (DOCS / "rules-engine.md").read_text()
    documented = table_names(section(reference, "The common fields of every view"))
    assert COMMON - documented == set()
    own = {"cells", "marks", "line"}  # Tic-Tac-Toe's own keys: the rest are the engine's
    assert set().union(*(v.keys() for v in views("tic-tac-toe"))) - own == COMMON


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_key_of_a_games_view_is_in_its_page(slug: str) -> None:
    page = DOCS / "games" / f"{slug}.md"
    assert page.exists(), f"docs/games/{slug}.md"
    documented = table_names(section(page.read_text(), "The view"))
    keys = set().union(*(v.keys() for v in views(slug))) - COMMON
    assert keys - documented == set()


def test_the_openapi_room_schema_names_every_key_of_the_room_object() -> None:
    from backend.lounge import Lounge
    from backend.store import MemoryRoomStore
    from backend.views import summary

    room = Lounge(MemoryRoomStore()).create_room("6f1c2a9e-0b7d", "tic-tac-toe", "Ada", True)
    body = summary(room)
    schemas = openapi_document()["components"]["schemas"]
    assert set(body) - set(schemas["Room"]["properties"]) == set()
    assert set(body["seats"][0]) - set(schemas["Seat"]["properties"]) == set()


def test_every_server_module_is_in_the_architecture() -> None:
    """architecture.md says every module's job: a new one needs its line there."""
    text = (DOCS / "architecture.md").read_text()
    modules = [p for folder in ("backend", "backend/cluster") for p in (ROOT / folder).glob("*.py")
               if p.name != "__init__.py"]
    assert [p.name for p in modules if f"`{p.name}`" not in text and
            f"{p.parent.name}/{p.name}`" not in text] == []


def test_every_payload_field_is_named_in_its_events_section() -> None:
    text = section(PROTOCOL, "Client events")
    missing = []
    for event, schema in SOCKET_SCHEMAS.items():
        start = re.search(rf"^### `{event}`.*$", text, re.M)
        assert start is not None, event
        end = text.find("\n### ", start.end())
        body = text[start.end():] if end < 0 else text[start.end():end]
        missing += [f"{event}.{name}" for name in schema.fields if f'"{name}"' not in body
                    and f"`{name}`" not in body]
    assert missing == []


def test_the_readme_links_every_doc() -> None:
    linked = set(re.findall(r"\]\((docs/[^)#\s]+)", README))
    pages = {str(p.relative_to(ROOT)) for p in DOCS.rglob("*.md")}
    assert pages - linked == set()


def test_every_public_name_of_the_rules_package_is_in_the_engine_reference() -> None:
    import shared_rules

    text = (DOCS / "rules-engine.md").read_text()
    assert [name for name in shared_rules.__all__ if not re.search(rf"\b{name}\b", text)] == []


def test_every_closing_reason_is_in_the_protocol_with_its_sentence() -> None:
    from backend.closing import WHY, ClosedNote

    closed = section(PROTOCOL, "Server events")
    closed = closed[closed.index("### `closed`"):]
    for reason in WHY:
        assert f"`{reason}`" in closed, reason
        sentence = ClosedNote("K7MPQ2", reason, "pirate-poker", 0).message()
        assert f'| `{reason}` | "{sentence}" |' in PROTOCOL, reason


def test_the_haproxy_configuration_in_deployment_is_the_one_written() -> None:
    from backend.balancer import haproxy_config

    text = (DOCS / "deployment.md").read_text()
    shown = text[text.index("### The local cluster's HAProxy configuration"):]
    shown = shown[shown.index("```\n") + 4:]
    shown = shown[:shown.index("```")]
    written = haproxy_config([("127.0.0.1", 41001), ("127.0.0.1", 41002)], 5000,
                             stats_socket="/tmp/lounge-haproxy-.../admin.sock")

    def lines(config: str) -> list[str]:
        return [line for line in config.splitlines()
                if line.strip() and not line.strip().startswith("#")]

    assert lines(shown) == lines(written)
