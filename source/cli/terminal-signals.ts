/**
 * What planwatch writes to the terminal besides frames: notifications (OSC 9 + OSC 777 + bell) and the clipboard
 * (OSC 52), wrapped for tmux when `$TMUX` is set. In tmux the clipboard goes both ways: as it is, for tmux's own
 * `set-clipboard on` (tmux then sets the outer terminal's clipboard), and wrapped, for `allow-passthrough on`.
 * With tmux's defaults neither arrives, and nothing says so (OSC 52 has no answer). Nothing is written unless stdout
 * is a terminal: plain and json output, pipes and files never get an escape sequence from here.
 */
import {notification, forTerminal, osc52} from '../model/terminal-sequences.js';

export type CopyResult = 'copied' | 'too-large' | 'not-a-terminal';

export type TerminalSignals = {
	/** Stdout is a terminal: sequences can be sent. */
	readonly available: boolean;
	/** A desktop notification and the bell; false when not sent. */
	notify(title: string, body: string): boolean;
	copy(text: string): CopyResult;
};

export function createTerminalSignals(options: {
	readonly write: (text: string) => void;
	readonly isTTY: boolean;
	readonly env: Readonly<Record<string, string | undefined>>;
}): TerminalSignals {
	const inTmux = (options.env['TMUX'] ?? '') !== '';
	return {
		available: options.isTTY,
		notify(title, body) {
			if (!options.isTTY) {
				return false;
			}

			options.write(notification(title, body, inTmux));
			return true;
		},
		copy(text) {
			if (!options.isTTY) {
				return 'not-a-terminal';
			}

			const sequence = osc52(text);
			if (sequence === undefined) {
				return 'too-large';
			}

			options.write(inTmux ? sequence + forTerminal(sequence, true) : sequence);
			return 'copied';
		},
	};
}
