import {openSync} from 'node:fs';
import {ReadStream} from 'node:tty';

/**
 * Keys for the TUI when stdin carried the objects (`kubectl get … -o yaml | planwatch -f -`): read the
 * controlling terminal directly, as less and fzf do. Undefined when there is none (CI, no terminal).
 */
export function openTerminalInput(): ReadStream | undefined {
	try {
		return new ReadStream(openSync('/dev/tty', 'r'));
	} catch {
		return undefined;
	}
}
