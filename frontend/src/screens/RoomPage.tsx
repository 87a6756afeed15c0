import { useCallback, useEffect, useMemo, useState, type FormEvent, type ReactElement } from "react";
import { Chat, ChatBadge, useUnreadChat } from "../components/Chat";
import { HostAway } from "../components/HostAway";
import { NameInput } from "../components/NameInput";
import { fetchRoom, type ApiError } from "../lib/api";
import { releaseSeat, useHeldSeat } from "../lib/heldSeats";
import {
  forgetIdentity, freeSeatIn, getName, identityForRoom, lookAtHeldSeats, saveName, takeIdentity, validName, type FreedSeat, type Identity,
} from "../lib/identity";
import { knownRoom, rememberRoom } from "../lib/knownRooms";
import { forgetLeft, hasLeft, markLeft } from "../lib/leftRooms";
import { hostName, seatFree } from "../lib/seats";
import { isRoomKey, Link, navigate, rewriteAddress } from "../lib/router";
import { setTableGame } from "../lib/tableGame";
import { useGames } from "../lib/useGames";
import { useLasting } from "../lib/useLasting";
import { useLookWhileShown } from "../lib/useLookWhileShown";
import { useRoom, type RoomModel } from "../lib/useRoom";
import type { GamesResponse, Room } from "../lib/types";
import type { Send } from "../lib/useSend";
import { useTitle } from "../lib/useTitle";
import { GameView } from "./GameView";
import { Lobby } from "./Lobby";

const CLOSED_REASONS: Record<string, string> = {
  host_left: "The host closed the room.",
  host_disconnected: "The host lost their connection, so the room was closed.",
  host_never_came: "The host never came, so the room was closed.",
  abandoned: "Nothing had happened here for hours, so the room was closed.",
  game_withdrawn: "Its game is no longer offered here, so the room was closed.",
};

/** What the invite link's room is, looked up before asking for a name: the room, `missing`
 * (no open room has the code: the server's sentence), or null while unknown (asking, or the
 * lookup failed: the join then says what is wrong). */
type Lookup = Room | { missing: string } | null;

/** How often a page showing a room it has not joined looks at it again (its game ends, a seat
 * frees, it closes). */
export const ROOM_CHECK_MS = 4000;

/** The lookup of `code` while `ask`; looked at again every few seconds while the tab is shown (the
 * page asking for a name, or saying this tab left, keeps its line on the room current: the game
 * ends, a seat frees, the room closes), keeping the last answer when a later look fails. */
function useLookup(code: string, ask: boolean): Lookup {
  const [found, setFound] = useState<{ code: string; lookup: Lookup } | null>(null);
  const look = useCallback(() => {
    if (!ask) return;
    fetchRoom(code).then((room): Lookup => room,
      (e: ApiError) => (e.code === "not_found" ? { missing: e.message } : undefined))
      .then((lookup) => lookup !== undefined && setFound({ code, lookup }));
  }, [code, ask]);
  useEffect(look, [look]);
  const lookup = ask && found?.code === code ? found.lookup : null;
  // A closed room stays closed: no need to look again.
  useLookWhileShown(look, ROOM_CHECK_MS, ask && !isMissing(lookup));
  return lookup;
}

function isMissing(lookup: Lookup): lookup is { missing: string } {
  return lookup !== null && "missing" in lookup;
}

/** One line on the room an invite leads to: its game, who hosts it, its seats (`flush`: without
 * a paragraph's margins, in a panel that spaces its lines itself). */
function atTable(players: number): string {
  return `${players} ${players === 1 ? "player" : "players"} at the table`;
}

export function RoomLine({ room, flush = false, held = null }: {
  room: Room; flush?: boolean;
  /** A seat of this browser's is there: played in another tab, or freed to take back here. */
  held?: "elsewhere" | "freed" | null;
}): ReactElement {
  const host = hostName(room, "someone");
  const waiting = room.status === "waiting";
  const where = held === "elsewhere" ? ", in another tab" : "";
  const mine = held ? ` (one is ${waiting ? "yours" : "you"}${where})` : "";
  // Before the game, who has sat down; during it, who still plays (a seat whose player left stays
  // at the table, empty, until the game ends).
  const seated = waiting ? `${room.seats.length} of ${room.max_players} seats taken${mine}`
    : `${atTable(room.seats.filter((s) => !s.left).length)}${mine}`;
  // Someone with a seat here does not only watch; a freed seat is theirs, so one is free for them.
  const watch = held ? "" : ", so you would watch";
  const full = held === "freed" ? "" : `, with no seat free${watch}`;
  const state = room.status === "finished" ? `its game is over${watch}` : !waiting ? `a game is on${watch}`
    : seatFree(room) ? "waiting to start" : `waiting to start${full}`;
  return (
    <p className="muted" data-testid="join-room-line" style={flush ? { margin: 0 } : undefined}>
      {room.title}, hosted by {host}: {seated}, {state}.
    </p>
  );
}

/** How often a tab asking beside a seated tab looks whether that tab was closed (while shown). */
const FREED_CHECK_MS = 2000;
/** How long a seat of this browser's must have been free before it is offered: a seated tab being
 * reloaded leaves its seat for a second or two, and is not closed (taking the seat then would
 * have two tabs play it). */
export const FREED_AFTER_MS = 3000;
const seatKey = (seat: FreedSeat) => seat.identity.userId;
/** A look at this browser's seats in a room: the room now, the seat freed there, and whether one is still there. */
type HeldLook = Awaited<ReturnType<typeof lookAtHeldSeats>>;

/** Once this tab holds a seat (`seated`), the address loses the "?watch=1" that a Watch link or
 * "Just watch" put there: copied, or opened again, it would watch the table this tab plays at. In
 * place, so that Back does not lead to watching. */
function useSeatedAddress(seated: boolean): void {
  useEffect(() => {
    const address = new URL(window.location.href);
    if (!seated || address.searchParams.get("watch") !== "1") return;
    address.searchParams.delete("watch");
    rewriteAddress(`${address.pathname}${address.search}${address.hash}`);
  }, [seated]);
}

/** A seat of this browser freed while this tab asks (`watch`): the tab that played it was closed.
 * Looked up every few seconds while the tab is shown, and at once when it is shown again (closing
 * a tab shows another); `check` looks again now. */
function useFreedSeat(code: string, watch: boolean): [FreedSeat | null, () => Promise<FreedSeat | null>, HeldLook | null] {
  const [look, setLook] = useState<HeldLook | null>(null);
  const check = useCallback(async () => {
    const found = await lookAtHeldSeats(code);
    setLook(found);
    return found.freed;
  }, [code]);
  useLookWhileShown(check, FREED_CHECK_MS, watch);
  return [useLasting(watch ? look?.freed ?? null : null, seatKey, FREED_AFTER_MS), check, watch ? look : null];
}

function AskName({ code, room, elsewhere = null, freed = null, onTakeBack, onDone }: {
  code: string;
  room: Room | null;
  /** The seat this browser plays at this table in another tab, if it does. */
  elsewhere?: string | null;
  /** The name of a seat of this browser whose tab was closed since, if one was. */
  freed?: string | null;
  onTakeBack?: () => void;
  onDone: (name: string, spectate: boolean) => void;
}): ReactElement {
  // A seat for someone else: their name, not this browser's, which stays as it is.
  const [name, setName] = useState(() => (elsewhere ? "" : getName()));
  const [error, setError] = useState<string | null>(null);
  const submit = (spectate: boolean) => (event?: FormEvent) => {
    event?.preventDefault();
    const problem = spectate ? null : validName(name);
    if (problem) return setError(problem);
    if (name.trim() && !elsewhere) saveName(name);
    onDone(name.trim(), spectate);
  };
  return (
    <main className="page">
      <form className="panel stack" style={{ maxWidth: 460, margin: "2rem auto" }} onSubmit={submit(!seatFree(room))}>
        <h1>Join table <span className="code">{code}</span></h1>
        {room && <RoomLine room={room} held={freed !== null ? "freed" : elsewhere ? "elsewhere" : null} />}
        {freed !== null ? (
          <div className="notice stack" role="status" data-testid="freed-seat">
            <p style={{ margin: 0 }}><FreedSeatQuestion name={freed} /></p>
            <div className="btn-row">
              <button type="button" className="btn btn-primary" onClick={onTakeBack}>Play {freed} here</button>
            </div>
          </div>
        ) : elsewhere && (
          <p className="notice" role="status" data-testid="seated-elsewhere">
            You already play <strong>{elsewhere}</strong> at this table in another tab of this browser.{" "}
            {seatFree(room) ? "Take a seat here only for someone else on this computer, or just watch." : "Here you can watch."}
          </p>
        )}
        {/* Beside a seated tab the name is only for someone else's seat: no keyboard opened for it. */}
        <NameInput value={name} onChange={setName} testId="join-name" focus={!elsewhere} />
        {error && <p className="error-msg" role="alert">{error}</p>}
        <div className="btn-row">
          {seatFree(room) ? (
            <>
              <button type="submit" className={`btn ${freed === null ? "btn-primary" : ""}`}>Take a seat</button>
              <button type="button" className="btn" onClick={() => submit(true)()}>Just watch</button>
            </>
          ) : (
            <button type="button" className={`btn ${freed === null ? "btn-primary" : ""}`} onClick={() => submit(true)()}>Watch</button>
          )}
        </div>
      </form>
    </main>
  );
}

/** A room this tab left on purpose, opened again (the browser's Back, a reload, the link): what it
 * is now, and a way back in, taken only if the player asks. */
function LeftRoom({ code, room, onJoin }: { code: string; room: Room | null; onJoin: () => void }): ReactElement {
  const watch = room !== null && !seatFree(room); // a game is on, or no seat is free
  return (
    <main className="page">
      <div className="panel stack" style={{ maxWidth: 460, margin: "2rem auto" }} data-testid="left-room">
        <h1>Table <span className="code">{code}</span></h1>
        <p className="notice" style={{ margin: 0 }} data-testid="left-room-note">
          <strong>You left this room.</strong> You are not at its table any more: {watch ? "you can watch it" : "join again to come back"}.
        </p>
        {room && <RoomLine room={room} flush />}
        <div className="btn-row">
          {/* Its word is what it does: coming back to a game on (or a full table) is watching it. */}
          <button type="button" className="btn btn-primary" onClick={onJoin}>{watch ? "Watch" : "Join again"}</button>
          <Link href="/" className="btn">Back to the lounge</Link>
        </div>
      </div>
    </main>
  );
}

/** A page instead of the room: why, and where to go. `roomId` and `since` (when the room
 * opened: a room's id is its host's, whose other rooms' games are not this room's) offer its
 * games; `retry` offers to try again. */
function Problem({ title, text, roomId, since, retry }: {
  title: string; text: string; roomId?: string; since?: number; retry?: () => void;
}): ReactElement {
  const games = roomId && `/replays/${roomId}${since ? `?since=${since}` : ""}`;
  return (
    <main className="page">
      <div className="panel stack" style={{ maxWidth: 520, margin: "2rem auto" }} role="alert">
        <h1>{title}</h1>
        <p>{text}</p>
        <div className="btn-row">
          {retry && <button type="button" className="btn btn-primary" onClick={retry}>Try again</button>}
          <Link href="/" className={`btn ${retry ? "" : "btn-primary"}`}>Back to the lounge</Link>
          {games && <Link href={games} className="btn">See its games</Link>}
        </div>
      </div>
    </main>
  );
}

/** No open room has the code: closed (if this browser was in it), or never there. The server's
 * `message` is shown when it says why the room closed ("Room K7MPQ2 has closed: the host closed it.",
 * see docs/protocol.md); the games of a room this browser was in are offered then only if its
 * game is still offered (the others can no longer be watched). */
function NoRoom({ code, message }: { code: string; message: string }): ReactElement {
  const known = knownRoom(code);
  const games = useGames().data;
  if (message.startsWith(`Room ${code.toUpperCase()} has closed: `)) {
    const watchable = known && games?.games.some((g) => g.title === known.title);
    return <Problem title="This room has closed" text={message}
      roomId={watchable ? known.id : undefined} since={known?.created} />;
  }
  if (known) {
    return <Problem title="This room has closed" roomId={known.id} since={known.created}
      text={`The ${known.title} table ${code} you were at has closed. Its games can still be watched.`} />;
  }
  return <Problem title="No open room with this code"
    text={`There is no open room with code ${code}: it may have closed, or the code may be mistyped.`} />;
}

export interface RoomPageProps {
  code: string;
  spectate: boolean;
  /** Another page of the app is on screen: the room keeps its connection (and the seat) and
   * shows only a line to come back. */
  hidden?: boolean;
  /** The room is no longer worth keeping: left, closed, or never joined. */
  onGone?: () => void;
}

/** This tab's identity for the room, and a way to a new one when the server no longer accepts
 * its token (it restarted with a new key): the seat held with the old one is let go. */
function useRoomIdentity(code: string): {
  identity: Identity | null; elsewhere: string | null; error: string | null; renew: () => void;
  takeBack: (seat: Identity) => void;
} {
  const [identity, setIdentity] = useState<Identity | null>(null);
  const [elsewhere, setElsewhere] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    identityForRoom(code).then((found) => {
      setElsewhere(found.elsewhere);
      setIdentity(found.identity);
    }).catch((e: Error) => setError(e.message));
  }, [code]);
  useEffect(load, [load]);
  const renew = () => {
    if (identity) releaseSeat(code, identity.userId);
    forgetIdentity();
    setIdentity(null);
    load();
  };
  // A seat whose tab was closed while this tab asked: this tab plays it, as that player.
  const takeBack = (seat: Identity) => {
    setIdentity(takeIdentity(seat));
    setElsewhere(null);
  };
  return { identity, elsewhere, error, renew, takeBack };
}

/** The line shown on the app's other pages while this tab still sits at a table. */
function BackToTable({ code, title }: { code: string; title: string }): ReactElement {
  return (
    <div className="banner banner-info" role="status" data-testid="back-to-table">
      <span>You are still at table <span className="code">{code}</span> ({title}).</span>
      <Link href={`/r/${code}`} className="btn btn-small btn-primary">Back to the table</Link>
    </div>
  );
}

/** The offer of a seat of this browser's whose tab was closed, in the words of both places that
 * make it (a tab asking beside the seated one, a tab watching the table). */
function FreedSeatQuestion({ name }: { name: string }): ReactElement {
  return <><strong>{name}</strong>’s tab was closed: play {name} here?</>;
}

/** A seat of this browser's that nobody plays now, offered to a tab watching the room: its player
 * had it in a tab that was closed. */
function FreedSeatBanner({ name, onTake }: { name: string; onTake: () => void }): ReactElement {
  return (
    <div className="banner banner-info" role="status" data-testid="freed-seat">
      <span><FreedSeatQuestion name={name} /></span>
      <button type="button" className="btn btn-small btn-primary" onClick={onTake}>Play {name} here</button>
    </div>
  );
}

/** The connection is lost, or refused for a while (`refusal`, the server's words): it comes back by itself. */
function Reconnecting({ refusal }: { refusal: string | null }): ReactElement {
  return (
    <div className="banner banner-warn banner-pinned" role="status" data-testid="reconnecting">
      <span className="spinner" aria-hidden="true" />
      {refusal === null ? "Connection lost: reconnecting…" : `${refusal} (trying again in a moment…)`}
    </div>
  );
}

/** The room joined: the lobby before a game, the table during one, with the chat beside. */
function JoinedRoom({ room, userId, model, send, games, onLeave }: {
  room: Room; userId: string; model: RoomModel; send: Send; games: GamesResponse | null; onLeave: () => void;
}): ReactElement {
  const turnTimes = games?.turn_times ?? [];
  const offline = model.status !== "online";
  const unread = useUnreadChat(model.chat, userId);
  const chat = <Chat messages={model.chat} me={userId} disabled={offline} send={(text) => send("chat", { text })}
    watchRef={unread.watch} />;
  const chatBadge = <ChatBadge unread={unread.unread} onShow={unread.show} />;
  return (
    <>
      {room.host !== userId && <HostAway room={room} closesAt={model.closesAt} />}
      <main className="page">
        {room.status === "waiting" ? (
          <div className="room-layout">
            <Lobby room={room} userId={userId} mySeats={model.mySeats} spectator={model.spectator}
              turnTimes={turnTimes} send={send} onLeave={onLeave} offline={offline} chatBadge={chatBadge} />
            {chat}
          </div>
        ) : (
          <GameView room={room} game={games?.games.find((g) => g.slug === room.game)} userId={userId}
            mySeats={model.mySeats} spectator={model.spectator} leftGame={model.leftGame} leftOut={model.leftOut} clock={model.clock}
            turnTimes={turnTimes} states={model.states} log={model.log} send={send} onLeave={onLeave} chat={chat}
            chatBadge={chatBadge} offline={offline} />
        )}
      </main>
    </>
  );
}

/** A room: asks for a name if needed (or, for a room this tab left on purpose, whether to join
 * again), joins, then shows the lobby or the table with the chat. */
export function RoomPage({ code, spectate, hidden = false, onGone }: RoomPageProps): ReactElement | null {
  const { identity, elsewhere, error: idError, renew, takeBack } = useRoomIdentity(code);
  const [entry, setEntry] = useState<{ name: string; spectate: boolean } | null>(() => {
    const known = getName();
    return known || spectate ? { name: known, spectate } : null;
  });
  // This browser already plays a seat here in another tab: a second seat (a friend on this computer)
  // is taken only when asked for, never by opening the invite link again.
  const [answered, setAnswered] = useState(false);
  const askFirst = elsewhere !== null && !answered && !entry?.spectate;
  // ... and once that tab is closed, its seat is offered back here.
  const [freed, checkFreed, heldLook] = useFreedSeat(code, askFirst && !hidden);
  // The seat played in another tab was given up since (that tab closed, its grace period over): this
  // tab no longer says it is played there, and shows the room as the last look found it.
  const seatGone = heldLook !== null && !heldLook.held;

  // Left on purpose from this tab: coming back asks first (cleared once the player joins again).
  const [leftHere, setLeftHere] = useState(() => hasLeft(code));

  const wellFormed = isRoomKey(code);
  const lookup = useLookup(code, (entry === null || leftHere || askFirst) && !hidden && wellFormed);
  const games = useGames();
  const [model, actions] = useRoom(code, identity, entry?.name ?? "", entry?.spectate ?? false,
    entry !== null && !leftHere && !askFirst && wellFormed);
  useTitle(hidden ? null : model.room ? `${model.room.title} · ${code}` : `Table ${code}`);
  const { room: joined } = model;
  useEffect(() => {
    if (joined) rememberRoom(joined);
  }, [joined?.id]);
  useEffect(() => {
    if (hidden || !joined) return undefined;
    setTableGame(joined.game);
    return () => setTableGame(null);
  }, [hidden, joined?.game]);
  // Refused for too many new connections: the connection tries again by itself after a while.
  const refusal = model.fatal?.code === "rate_limited" ? model.fatal.message : null;
  const failed = model.fatal !== null && model.fatal.code !== "unauthorized" && refusal === null;
  const gone = model.closed !== null || failed;
  const roomGone = model.closed !== null || model.fatal?.code === "not_found" || isMissing(lookup);
  useHeldSeat(code, identity, model.status === "online" ? model.mySeats.length > 0 : null, roomGone);
  useSeatedAddress(!hidden && model.mySeats.length > 0);
  useEffect(() => {
    if (hidden && (gone || !entry || leftHere)) onGone?.();
  }, [hidden, gone, entry === null, leftHere]);
  useEffect(() => {
    if (model.fatal?.code === "unauthorized") renew();
  }, [model.fatal]);
  // Left from another tab of this player's (a duplicated tab): this one says so too, as it would
  // after leaving here, rather than go on showing a seat in a room the player is no longer in.
  useEffect(() => {
    if (!model.left) return;
    markLeft(code);
    setLeftHere(true);
  }, [model.left]);

  const leave = async () => {
    markLeft(code);
    if (identity) releaseSeat(code, identity.userId);
    await actions.leave();
    onGone?.();
    navigate("/");
  };

  // Still free (another tab of this browser may have taken it): this tab plays it, as that player.
  const playFreed = async () => {
    const seat = await checkFreed();
    if (!seat) return;
    takeBack(seat.identity);
    setAnswered(true);
    setEntry({ name: seat.name, spectate: false });
  };

  // A watching tab sees the room live: a seat of this browser's freed there is offered once it stays
  // free (FREED_AFTER_MS).
  // Looked at when the room changes (a seat's connection is told in it), not at every render (each
  // move renders the page again, and the browser's held seats are read from localStorage).
  const watchingOnline = model.spectator && model.status === "online";
  const freeHere = useMemo(() => (joined && watchingOnline ? freeSeatIn(joined) : null), [joined, watchingOnline]);
  const freedHere = useLasting(freeHere, seatKey, FREED_AFTER_MS);

  if (hidden) return joined && !gone ? <BackToTable code={code} title={joined.title} /> : null;
  if (!wellFormed) {
    return <Problem title="This is not a room code"
      text={`A room code has 6 letters and digits, like K7MPQ2: ${code} is not one. Check the invite link.`} />;
  }
  if (!entry || leftHere || askFirst) {
    if (isMissing(lookup)) return <NoRoom code={code} message={lookup.missing} />;
    if (leftHere) {
      const joinAgain = () => {
        forgetLeft(code);
        setLeftHere(false);
      };
      return <LeftRoom code={code} room={lookup} onJoin={joinAgain} />;
    }
    return <AskName code={code} room={heldLook?.room ?? lookup} elsewhere={askFirst && !seatGone ? elsewhere : null}
      freed={freed?.name ?? null}
      onTakeBack={() => void playFreed()} onDone={(name, watch) => {
        setAnswered(true);
        setEntry({ name, spectate: watch });
        // In the address, as a Watch link has it: a reload then watches again, where it joined with
        // the name this page just saved and took a seat in the lobby.
        if (watch) navigate(`/r/${code}?watch=1`, true);
      }} />;
  }
  if (idError) return <Problem title="Cannot reach the lounge" text={idError} />;
  if (model.closed) {
    return <Problem title="This room was closed" text={CLOSED_REASONS[model.closed] ?? "The room is gone."}
      roomId={model.room?.id} since={model.room?.created} />;
  }
  if (model.fatal && failed) {
    if (model.fatal.code === "not_found") return <NoRoom code={code} message={model.fatal.message} />;
    return <Problem title="Cannot join this room" text={model.fatal.message} retry={() => window.location.reload()} />;
  }

  return (
    <>
      {(model.status === "reconnecting" || refusal !== null) && <Reconnecting refusal={refusal} />}
      {freedHere && <FreedSeatBanner name={freedHere.name} onTake={() => void playFreed()} />}
      {joined && identity ? (
        <JoinedRoom room={joined} userId={identity.userId} model={model} send={actions.send} games={games.data}
          onLeave={() => void leave()} />
      ) : (
        <main className="page"><p className="muted" role="status">Joining table {code}…</p></main>
      )}
    </>
  );
}
