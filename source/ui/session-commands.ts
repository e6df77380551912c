/**
 * The keys that drive the run rather than the view: `+` and `-` move the wait's deadline, space, `[` and `]` drive
 * a replay. The view state never sees them.
 */
import type {ReplayControls} from '../recording/replay-clock.js';
import type {WaitControls} from '../state/wait-session.js';
import type {Command} from './keymap.js';

/** Run `command` on the wait or the replay; false when it is not one of theirs. */
export function runSessionCommand(
	command: Command,
	wait: Pick<WaitControls, 'extend' | 'retract'>,
	replay: Pick<ReplayControls, 'togglePause' | 'jump'> | undefined,
): boolean {
	switch (command) {
		case 'timeout.extend': {
			wait.extend();
			return true;
		}

		case 'timeout.retract': {
			wait.retract();
			return true;
		}

		case 'replay.pause': {
			replay?.togglePause();
			return true;
		}

		case 'replay.previous':
		case 'replay.next': {
			replay?.jump(command === 'replay.next' ? 'next' : 'previous');
			return true;
		}

		default: {
			return false;
		}
	}
}
