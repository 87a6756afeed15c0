import { useState, type FormEvent, type ReactElement } from "react";
import { Avatar } from "../components/Avatar";
import { TurnTimeSelect } from "../components/TurnTimeSelect";
import { getName } from "../lib/identity";
import { useGames } from "../lib/useGames";
import type { Ack, Room, SeatInfo } from "../lib/types";

export interface LobbyProps {
  room: Room;
  userId: string;
  mySeats: number[];
  /** The turn times the host may set (the server's list). */
  turnTimes?: number[];
  spectator: boolean;
  send: (event: string, payload?: object) => Promise<Ack>;
  onLeave: () => void;
  /** While the connection is lost nothing can be sent: the controls wait for it. */
  offline?: boolean;
}

function InviteBox({ code }: { code: string }): ReactElement {
  const link = `${window.location.origin}/r/${code}`;
  const [copied, setCopied] = useState<string | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied("Link copied");
    } catch {
      const field = document.getElementById("invite-link") as HTMLInputElement | null;
      field?.select();
      setCopied("Press Ctrl+C to copy the selected link");
    }
    window.setTimeout(() => setCopied(null), 2500);
  };
  return (
    <div className="stack" style={{ gap: "0.4rem" }}>
      <div className="invite">
        <span className="muted">Room code</span>
        <span className="code big-code" data-testid="room-code">{code}</span>
      </div>
      <div className="invite">
        <label className="visually-hidden" htmlFor="invite-link">Invite link</label>
        <input id="invite-link" type="text" readOnly value={link} onFocus={(e) => e.target.select()} />
        <button type="button" className="btn btn-small" onClick={copy}>Copy link</button>
        <span role="status" aria-live="polite" className="muted">{copied}</span>
      </div>
    </div>
  );
}

function SeatTags({ seat, isHost, isMe }: { seat: SeatInfo; isHost: boolean; isMe: boolean }): ReactElement {
  return (
    <div className="seat-tags">
      {isHost && <span className="pill pill-host">Host</span>}
      {isMe && seat.kind !== "local" && <span className="pill pill-ok">You</span>}
      {seat.kind === "bot" && <span className="pill pill-bot">Bot · {seat.level}</span>}
      {seat.kind === "local" && <span className="pill pill-local">Hot seat</span>}
      {seat.kind === "human" && (
        <span className={`pill ${seat.connected ? "pill-ok" : "pill-off"}`}>
          <span className={`dot ${seat.connected ? "dot-on" : "dot-off"}`} />
          {seat.connected ? "Player · online" : "Player · disconnected"}
        </span>
      )}
      <span className={`pill ${seat.ready ? "pill-ok" : "pill-warn"}`}>{seat.ready ? "Ready" : "Not ready"}</span>
    </div>
  );
}

function HostTools({ room, send, setError, offline }: {
  room: Room; send: LobbyProps["send"]; setError: (e: string | null) => void; offline: boolean;
}): ReactElement {
  // The levels are the server's: no bot can be asked for before they are known.
  const levels = useGames().data?.bot_levels ?? [];
  const [level, setLevel] = useState("");
  const [local, setLocal] = useState("");
  const full = room.seats.length >= room.max_players;
  const botLevel = level || levels[levels.length - 1];
  const run = async (event: string, payload: object = {}) => {
    const ack = await send(event, payload);
    setError(ack.ok ? null : ack.error.message);
    return ack.ok;
  };
  const addLocal = async (e: FormEvent) => {
    e.preventDefault();
    const name = local.trim();
    if (!name) return setError("Give the hot-seat player a name.");
    if (await run("add_local", { name })) setLocal("");
  };
  return (
    <div className="host-tools">
      <form onSubmit={(e) => { e.preventDefault(); void run("add_bot", { level: botLevel }); }}>
        <label className="field">
          Bot level
          <select value={botLevel ?? ""} disabled={offline || !botLevel} onChange={(e) => setLevel(e.target.value)}>
            {levels.map((l) => <option key={l} value={l}>{l}</option>)}
          </select>
        </label>
        <button type="submit" className="btn" disabled={full || offline || !botLevel}>Add bot</button>
      </form>
      <form onSubmit={addLocal}>
        <label className="field">
          Hot-seat player
          <input type="text" value={local} maxLength={32} placeholder="Name" disabled={offline}
            onChange={(e) => setLocal(e.target.value)} />
        </label>
        <button type="submit" className="btn" disabled={full || offline}>Add hot seat</button>
      </form>
    </div>
  );
}

/** The room before the game: seats, invite, host controls, ready and leave. */
export function Lobby({ room, userId, mySeats, spectator, turnTimes = [], send, onLeave, offline = false }: LobbyProps): ReactElement {
  const [error, setError] = useState<string | null>(null);
  const isHost = room.host === userId;
  const mine = room.seats.find((s) => mySeats.includes(s.seat) && s.kind === "human");
  const empty = Math.max(0, room.max_players - room.seats.length);
  const unready = room.seats.filter((s) => s.kind === "human" && !s.ready).map((s) => s.name);
  const tooFew = room.seats.length < room.min_players;
  const removed = room.removed ?? [];
  const removedMe = removed.some((player) => player.user_id === userId);

  const act = async (event: string, payload: object = {}) => {
    const ack = await send(event, payload);
    setError(ack.ok ? null : ack.error.message);
  };

  return (
    <section className="panel stack" aria-labelledby="lobby-title">
      <div className="room-head">
        <h1 id="lobby-title">{room.title}</h1>
        <span className="pill">{room.public ? "Public" : "Unlisted"}</span>
        <span className="pill">{room.seats.length}/{room.max_players} seats</span>
        {room.spectators > 0 && <span className="pill">{room.spectators} watching</span>}
      </div>
      <InviteBox code={room.code} />
      {spectator && (removedMe ? (
        <p className="notice" role="status">
          The host took you off the seats: you can watch, and the host can let you back in.
        </p>
      ) : (
        <p className="notice" role="status">
          You are watching this table. The game will appear here when it starts.
          {empty > 0 && (
            <button type="button" className="btn btn-small btn-accent" style={{ marginLeft: "0.6rem" }}
              disabled={offline} onClick={() => void act("join", { room: room.code, name: getName() || undefined })}>
              Take a seat
            </button>
          )}
        </p>
      ))}
      <h2>Seats</h2>
      <ul className="seat-list" aria-label="Seats">
        {room.seats.map((seat) => (
          <li key={seat.seat} className={`seat ${mySeats.includes(seat.seat) ? "seat-me" : ""}`}
            data-testid={`seat-${seat.seat}`}>
            <div className="seat-top">
              <Avatar name={seat.name} seat={seat.seat} bot={seat.kind === "bot"} />
              <span className="seat-name">{seat.name}</span>
            </div>
            <SeatTags seat={seat} isHost={seat.seat === 0} isMe={mySeats.includes(seat.seat)} />
            {isHost && seat.seat !== 0 && (
              <button type="button" className="btn btn-small btn-danger" style={{ alignSelf: "flex-start" }}
                disabled={offline} onClick={() => void act("remove_seat", { seat: seat.seat })}
                aria-label={`Remove ${seat.name}`}>Remove</button>
            )}
          </li>
        ))}
        {Array.from({ length: empty }, (_, i) => (
          <li key={`empty${i}`} className="seat seat-empty">Open seat</li>
        ))}
      </ul>
      {isHost && removed.length > 0 && (
        <div className="stack" style={{ gap: "0.4rem" }}>
          <h2>Removed (watching only)</h2>
          <ul className="removed-list" aria-label="Removed players">
            {removed.map((player) => (
              <li key={player.user_id} className="btn-row">
                <span>{player.name}</span>
                <button type="button" className="btn btn-small" disabled={offline}
                  onClick={() => void act("allow", { user_id: player.user_id })}>
                  Let {player.name} back in
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      {isHost && <HostTools room={room} send={send} setError={setError} offline={offline} />}
      <TurnTimeSelect room={room} isHost={isHost} times={turnTimes} send={send} disabled={offline} />
      {error && <p className="error-msg" role="alert">{error}</p>}
      <div className="btn-row">
        {isHost && (
          <button type="button" className="btn btn-primary" disabled={offline}
            onClick={() => void act("start")}>Start game</button>
        )}
        {!isHost && mine && (
          <button type="button" className={`btn ${mine.ready ? "" : "btn-accent"}`} disabled={offline}
            onClick={() => void act("ready", { ready: !mine.ready })} aria-pressed={mine.ready}>
            {mine.ready ? "I’m not ready" : "I’m ready"}
          </button>
        )}
        <button type="button" className="btn btn-danger" onClick={onLeave}>
          {isHost ? "Close room" : "Leave"}
        </button>
      </div>
      {isHost && (tooFew || unready.length > 0) && (
        <p className="muted">
          {tooFew
            ? `Waiting for players: ${room.title} needs at least ${room.min_players}.`
            : `Waiting for ${unready.join(", ")} to be ready.`}
        </p>
      )}
      {!isHost && !spectator && <p className="muted">The host starts the game when everyone is ready.</p>}
    </section>
  );
}
