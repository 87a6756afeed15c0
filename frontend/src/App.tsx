import type { ReactElement } from "react";
import { Link, useRoute } from "./lib/router";
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

export function App(): ReactElement {
  const route = useRoute();
  return (
    <>
      <header className="topbar">
        <Link href="/" className="brand" aria-label="Gaming Lounge, home">
          <Logo />
          <span>Gaming Lounge</span>
        </Link>
        <nav aria-label="Main">
          <Link href="/" aria-current={route.name === "home" ? "page" : undefined}>Play</Link>
          <Link href="/rules" aria-current={route.name === "rules" ? "page" : undefined}>Rules</Link>
        </nav>
      </header>
      {route.name === "home" && <Home />}
      {route.name === "room" && <RoomPage key={route.code} code={route.code} spectate={route.spectate} />}
      {route.name === "rules" && <RulesPage slug={route.slug} />}
      {route.name === "replay" && <ReplayPage key={route.id} id={route.id} />}
      {route.name === "replays" && <RoomReplaysPage key={route.room} roomId={route.room} />}
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
