import type { ReactElement } from "react";
import { Markdown } from "../components/Markdown";
import { Link } from "../lib/router";
import { playerCount } from "../lib/seats";
import { useGames } from "../lib/useGames";
import { useTitle } from "../lib/useTitle";

/** The rules text's title (its first line, when a heading) and the rest: the player count goes
 * between the two, under the game's name. */
function splitTitle(rules: string): [string, string] {
  const match = /^\s*#[^\n]*(\n|$)/.exec(rules);
  return match ? [match[0], rules.slice(match[0].length)] : ["", rules];
}

/** The rules of each game, as the server's rules text. */
export function RulesPage({ slug }: { slug: string | null }): ReactElement {
  const { data, error } = useGames();
  const games = data?.games ?? [];
  const game = games.find((g) => g.slug === slug) ?? (slug ? undefined : games[0]);
  useTitle(game ? `Rules of ${game.title}` : "Rules");
  const [title, body] = splitTitle(game?.rules ?? "");
  return (
    <main className="page">
      <nav className="tabs" aria-label="Games">
        {games.map((g) => (
          <Link key={g.slug} href={`/rules/${g.slug}`}
            className={`btn btn-small ${g.slug === game?.slug ? "btn-primary" : ""}`}
            aria-current={g.slug === game?.slug ? "page" : undefined}>
            {g.title}
          </Link>
        ))}
      </nav>
      <article className="panel">
        {error && <p className="error-msg" role="alert">{error}</p>}
        {!data && !error && <p className="muted">Loading the rules…</p>}
        {data && !game && <p className="error-msg" role="alert">There is no game called “{slug}”.</p>}
        {game && (
          <>
            {title && <Markdown source={title} />}
            <p className="muted" data-testid="player-count">{playerCount(game)}</p>
            <Markdown source={body} />
          </>
        )}
      </article>
    </main>
  );
}
