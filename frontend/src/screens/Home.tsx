import { useEffect, useRef, useState, type FormEvent, type ReactElement, type RefObject } from "react";
import { Card } from "../components/Card";
import { SaidAs } from "../components/SaidAs";
import { ApiError, createRoom, fetchPublicRooms, type PublicRooms } from "../lib/api";
import { getIdentity, getName, saveName, validName } from "../lib/identity";
import { forgetLeft } from "../lib/leftRooms";
import { listed } from "../lib/lists";
import { CODE_PATTERN, Link, navigate } from "../lib/router";
import { hostName, playerCount, seatFree } from "../lib/seats";
import { useGames } from "../lib/useGames";
import { useTitle } from "../lib/useTitle";
import type { GameInfo, Room } from "../lib/types";

/** The name field, with what is wrong with the name (asked for by Create or Join) right under it. */
function NameField({ name, setName, problem, field }: {
  name: string; setName: (n: string) => void; problem: string | null; field: RefObject<HTMLInputElement | null>;
}): ReactElement {
  return (
    <>
      <label className="field">
        Your display name
        <input type="text" value={name} maxLength={32} autoComplete="nickname" placeholder="e.g. Ada" ref={field}
          onChange={(e) => setName(e.target.value)} onBlur={() => saveName(name)} data-testid="name-input"
          aria-invalid={problem !== null} aria-describedby={problem ? "name-problem" : undefined} />
      </label>
      {problem && <p className="error-msg" role="alert" id="name-problem" style={{ marginTop: "0.5rem" }}>{problem}</p>}
    </>
  );
}

/** Checks the name before a form is sent: false (and the problem shown by the name field) when it
 * will not do. */
type NameCheck = () => boolean;

function CreateRoom({ games, name, checkName }: { games: GameInfo[]; name: string; checkName: NameCheck }): ReactElement {
  const [game, setGame] = useState<string>("");
  const [isPublic, setPublic] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const chosen = game || games[0]?.slug || "";

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!checkName()) return;
    setBusy(true);
    setError(null);
    saveName(name);
    try {
      const identity = await getIdentity();
      const room = await createRoom(identity.token, { game: chosen, name: name.trim(), public: isPublic });
      navigate(`/r/${room.code}`);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : "Something went wrong: try again.");
      setBusy(false);
    }
  };

  return (
    <form className="panel stack" onSubmit={submit} aria-labelledby="create-title">
      <h2 id="create-title">Host a game</h2>
      <fieldset className="game-picker">
        <legend className="visually-hidden">Game</legend>
        {games.map((g) => (
          <label key={g.slug} className="game-option">
            <input type="radio" name="game" value={g.slug} checked={chosen === g.slug}
              onChange={() => setGame(g.slug)} />
            <strong>{g.title}</strong>
            <small>{playerCount(g)}</small>
            <small>{g.summary}</small>
          </label>
        ))}
      </fieldset>
      <label className="toggle">
        <input type="checkbox" checked={isPublic} onChange={(e) => setPublic(e.target.checked)} />
        List the room publicly (otherwise only people with the code can join)
      </label>
      {error && <p className="error-msg" role="alert">{error}</p>}
      <div className="btn-row">
        <button type="submit" className="btn btn-primary" disabled={busy || !chosen}>
          {busy ? "Creating…" : "Create room"}
        </button>
        {chosen && <Link href={`/rules/${chosen}`}>How to play</Link>}
      </div>
    </form>
  );
}

function JoinByCode({ name, checkName, clearName }: { name: string; checkName: NameCheck; clearName: () => void }): ReactElement {
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const clean = code.trim().toUpperCase();
    setError(null);
    if (!CODE_PATTERN.test(clean)) {
      clearName(); // the name's problem was Create's: this is the other form
      return setError("A room code has 6 letters and digits, like K7MPQ2.");
    }
    if (!checkName()) return;
    saveName(name);
    forgetLeft(clean); // joining on purpose: a room left before is joined again, without asking twice
    navigate(`/r/${clean}`);
  };
  return (
    <form className="panel stack" onSubmit={submit} aria-labelledby="join-title">
      <h2 id="join-title">Join with a code</h2>
      <div className="join-form">
        <label className="visually-hidden" htmlFor="join-code">Room code</label>
        <input id="join-code" type="text" value={code} maxLength={6} placeholder="K7MPQ2"
          autoComplete="off" spellCheck={false} onChange={(e) => setCode(e.target.value)}
          aria-invalid={error ? true : undefined} aria-describedby={error ? "join-code-error" : undefined} />
        <button type="submit" className="btn btn-accent">Join</button>
      </div>
      {error && <p className="error-msg" role="alert" id="join-code-error">{error}</p>}
    </form>
  );
}

/** How many games being played Home lists. */
const PLAYING_SHOWN = 10;
/** `GET /api/rooms` lists at most this many rooms of each kind (docs/protocol.md): a full list may
 * leave some out. */
const LISTED_AT_MOST = 100;

/** What the list of games being played leaves out, in words ("and 14 more games being played"), or
 * null when it shows them all: `listed` the server listed, `shown` of them on the page. */
export function moreGamesText(listed: number, shown: number, atMost = LISTED_AT_MOST): string | null {
  const more = listed - shown;
  if (more <= 0) return null;
  return `and ${listed >= atMost ? "at least " : ""}${more} more ${more === 1 ? "game" : "games"} being played`;
}

/** One public table: its game, host and seats, its code, and a link to join or watch it. */
function RoomItem({ room, title }: { room: Room; title: string }): ReactElement {
  const host = hostName(room, "Someone");
  const waiting = room.status === "waiting";
  const join = seatFree(room);
  const status = waiting ? `${room.seats.length}/${room.max_players} seated`
    : room.status === "playing" ? "playing now" : "between games";
  // Joining or watching from the list is on purpose: a room this tab left is not asked about again.
  const choose = () => forgetLeft(room.code);
  return (
    <li className="room-item">
      <div className="grow">
        <div className="room-title">{title}</div>
        <div className="muted">{host}’s table · {status}</div>
      </div>
      <span className="code">
        <SaidAs words={`code ${room.code.split("").join(" ")}`}>{room.code}</SaidAs>
      </span>
      {join ? (
        <Link className="btn btn-small btn-primary" href={`/r/${room.code}`} onClick={choose}
          aria-label={`Join ${host}’s ${title} table`}>Join</Link>
      ) : (
        <Link className="btn btn-small" href={`/r/${room.code}?watch=1`} onClick={choose}
          aria-label={`Watch ${host}’s ${title} table${waiting ? " (no seat free)" : ""}`}>
          Watch
        </Link>
      )}
    </li>
  );
}

function PublicRoomsPanel({ titles }: { titles: Record<string, string> }): ReactElement {
  const [rooms, setRooms] = useState<PublicRooms | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const load = () =>
      fetchPublicRooms()
        .then((list) => {
          if (!live) return;
          setRooms(list);
          setError(null);
        })
        .catch((e: Error) => live && setError(e.message));
    void load();
    const timer = window.setInterval(load, 4000);
    return () => {
      live = false;
      window.clearInterval(timer);
    };
  }, []);
  const more = rooms && moreGamesText(rooms.playing.length, Math.min(rooms.playing.length, PLAYING_SHOWN));
  const item = (room: Room) => (
    <RoomItem key={room.id} room={room} title={titles[room.game] ?? room.title ?? room.game} />
  );
  return (
    <section className="panel stack" aria-labelledby="rooms-title">
      <h2 id="rooms-title">Open tables</h2>
      {error && <p className="error-msg" role="alert">{error}</p>}
      {rooms === null && !error && <p className="muted">Looking for tables…</p>}
      {rooms?.waiting.length === 0 && <p className="muted">No public table is waiting right now. Host one!</p>}
      {rooms && rooms.waiting.length > 0 && (
        <ul className="room-list" aria-label="Tables waiting for players">{rooms.waiting.map(item)}</ul>
      )}
      {rooms && rooms.playing.length > 0 && (
        <>
          <h3 className="room-list-title">Playing now</h3>
          <ul className="room-list" aria-label="Games being played">{rooms.playing.slice(0, PLAYING_SHOWN).map(item)}</ul>
          {more && <p className="muted room-list-more" data-testid="more-playing">{more}</p>}
        </>
      )}
    </section>
  );
}

/** The home page: name, host a room, join by code, the public tables. */
export function Home(): ReactElement {
  const { data, error } = useGames();
  const [name, setName] = useState(getName);
  const [nameProblem, setNameProblem] = useState<string | null>(null);
  const nameField = useRef<HTMLInputElement>(null);
  const checkName = () => {
    const problem = validName(name);
    setNameProblem(problem);
    if (problem) nameField.current?.focus();
    return problem === null;
  };
  const typeName = (typed: string) => {
    setName(typed);
    setNameProblem(null);
  };
  useTitle("");
  const titles = Object.fromEntries((data?.games ?? []).map((g) => [g.slug, g.title]));
  return (
    <main className="page">
      <section className="hero">
        <div>
          <h1>Pull up a chair.</h1>
          <p>Host a table, share the code, and play {listed(data?.games.map((g) => g.title) ?? [], "or") || "card games"} with
            friends in their browsers. Add a bot or a hot-seat player when you are short of hands.</p>
        </div>
        <div className="hero-cards" aria-hidden="true">
          <Card code="9H" style={{ left: "10%", transform: "rotate(-16deg)" }} />
          <Card code="JS" style={{ left: "30%", transform: "rotate(-5deg)", top: 0 }} />
          <Card code="QD" style={{ left: "50%", transform: "rotate(6deg)" }} />
          <Card style={{ left: "70%", transform: "rotate(16deg)", top: 18 }} />
        </div>
      </section>
      <div className="home-grid">
        <div className="stack">
          <div className="panel">
            <NameField name={name} setName={typeName} problem={nameProblem} field={nameField} />
          </div>
          {error && <p className="error-msg" role="alert">Cannot load the games: {error}</p>}
          {data && <CreateRoom games={data.games} name={name} checkName={checkName} />}
        </div>
        <div className="stack">
          <JoinByCode name={name} checkName={checkName} clearName={() => setNameProblem(null)} />
          <PublicRoomsPanel titles={titles} />
        </div>
      </div>
    </main>
  );
}
