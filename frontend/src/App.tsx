import { useCallback, useEffect, useState, type MouseEvent, type ReactElement } from "react";
import { RulesDialog } from "./components/RulesDialog";
import { Link, useRoute } from "./lib/router";
import { useTableGame } from "./lib/tableGame";
import { useFocusOnNewScreen } from "./lib/useFocusOnNewScreen";
import { Home } from "./screens/Home";
import { ReplayPage, RoomReplaysPage } from "./screens/ReplayPage";
import { RoomPage } from "./screens/RoomPage";
import { RulesPage } from "./screens/RulesPage";

function Logo(): ReactElement {
  return (
    <svg viewBox="0 0 64 64" aria-hidden="true">
      <rect x="10" y="6" width="36" height="50" rx="6" fill="#fff" transform="rotate(-12 28 31)" />
      <rect x="18" y="8" width="36" height="50" rx="6" fill="#fffdf8" stroke="#0f3d2e" strokeWidth="2"
        transform="rotate(8 36 33)" />
      <path d="M37 24c-4-7-13-4-11 3 1 5 11 11 11 11s10-6 11-11c2-7-7-10-11-3z" fill="#c62828" />
    </svg>
  );
}

interface KeptRoom {
  code: string;
  spectate: boolean;
}

export function App(): ReactElement {
  const route = useRoute();
  useFocusOnNewScreen();
  // The last room visited stays mounted (hidden) while another page of the app is on screen, so
  // that its connection, and the seat, survive in-app navigation; opening another room or
  // leaving this one lets it go.
  const [kept, setKept] = useState<KeptRoom | null>(null);
  const routeRoom = route.name === "room" ? route : null;
  useEffect(() => {
    if (routeRoom) setKept({ code: routeRoom.code, spectate: routeRoom.spectate });
  }, [routeRoom?.code]);
  const room = routeRoom ?? kept;
  const forget = useCallback(() => setKept(null), []);

  const tableGame = useTableGame();
  const [rulesOpen, setRulesOpen] = useState(false);
  const closeRules = useCallback(() => setRulesOpen(false), []);
  useEffect(() => setRulesOpen(false), [route.name]);
  const openRules = (event: MouseEvent<HTMLAnchorElement>) => {
    // At a table the rules open over it: leaving the room page would risk the seat.
    if (routeRoom && tableGame && event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey) {
      event.preventDefault();
      setRulesOpen(true);
    }
  };
  return (
    <>
      <header className="topbar">
        <Link href="/" className="brand" aria-label="Gaming Lounge, home">
          <Logo />
          <span>Gaming Lounge</span>
        </Link>
        <nav aria-label="Main">
          <Link href="/" aria-current={route.name === "home" ? "page" : undefined}>Play</Link>
          <Link href={routeRoom && tableGame ? `/rules/${tableGame}` : "/rules"} onClick={openRules}
            aria-current={route.name === "rules" ? "page" : undefined} aria-haspopup={routeRoom && tableGame ? "dialog" : undefined}>
            Rules
          </Link>
        </nav>
      </header>
      {room && (
        <RoomPage key={room.code} code={room.code} spectate={room.spectate} hidden={!routeRoom} onGone={forget} />
      )}
      {rulesOpen && routeRoom && tableGame && <RulesDialog slug={tableGame} onClose={closeRules} />}
      {route.name === "home" && <Home />}
      {route.name === "rules" && <RulesPage slug={route.slug} />}
      {route.name === "replay" && <ReplayPage key={route.id} id={route.id} />}
      {route.name === "replays" && <RoomReplaysPage key={`${route.room}/${route.since}`} roomId={route.room} since={route.since} />}
      {route.name === "missing" && (
        <main className="page">
          <div className="panel">
            <h1>Page not found</h1>
            <p>There is nothing at <code>{route.path}</code>.</p>
            <Link href="/" className="btn btn-primary">Back to the lounge</Link>
          </div>
        </main>
      )}
    </>
  );
}
