/**
 * Where `-v=6`'s request lines go. On stderr as they happen, unless stderr is the terminal the TUI draws on: lines
 * written there would land inside the picture and be overdrawn by the next frame. Then they are kept (the last
 * `maxKeptLines`) and printed once the TUI has left the screen. `2>requests.log` (a file, `tail -f` in another pane)
 * sees them live under the TUI too.
 */
import type {RequestLog} from '../kube/request-log.js';

/** Lines kept for the end of a TUI run; older ones are counted, not kept (a long watch makes many). */
export const maxKeptLines = 2000;

export type RequestLogSink = {
	readonly log: RequestLog;
	/** What is still to print (kept lines, with a note of those dropped); '' when live or empty. Empties the log. */
	readonly flush: () => string;
};

export function openRequestLog(
	options: {readonly live: boolean; readonly write: (text: string) => void; readonly now?: () => number},
): RequestLogSink {
	const now = options.now ?? Date.now;
	const kept: string[] = [];
	let dropped = 0;
	return {
		log(line) {
			const text = `${new Date(now()).toISOString()} ${line}\n`;
			if (options.live) {
				options.write(text);
				return;
			}

			kept.push(text);
			if (kept.length > maxKeptLines) {
				kept.shift();
				dropped++;
			}
		},
		flush() {
			const head = dropped > 0
				? `planwatch: -v: ${dropped} earlier request lines were not kept (the last ${maxKeptLines} follow)\n`
				: '';
			const text = head + kept.join('');
			kept.length = 0;
			dropped = 0;
			return text;
		},
	};
}
