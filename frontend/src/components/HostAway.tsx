import type { ReactElement } from "react";
import { hostName } from "../lib/seats";
import type { Room } from "../lib/types";
import { useSecondsLeft } from "../lib/useCountdown";

/** What the guests see while the host is away: who, and when the room closes. The live region is
 * there before the banner, so that screen readers say it once when it comes; the seconds tick
 * silently (aria-live off), or they would be read out every second. */
export function HostAway({ room, closesAt }: { room: Room; closesAt: number | null }): ReactElement {
  const left = useSecondsLeft(closesAt);
  const host = hostName(room, "The host");
  return (
    <div role="status">
      {left !== null && (
        <div className="banner banner-warn" data-testid="host-away">
          <span>
            {left > 0 ? `${host} lost connection; ` : `${host} did not come back: `}
            <span aria-live="off">
              {left > 0 ? `the room closes in ${left} s unless they come back.` : "the room is closing…"}
            </span>
          </span>
        </div>
      )}
    </div>
  );
}
