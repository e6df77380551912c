/**
 * Stands in for npm `restore-cursor` in the bundle (scripts/build.mjs). cli-cursor calls it when Ink hides the
 * cursor of a terminal; the original then writes the show-cursor sequence to stderr at exit whatever stderr is, so
 * `planwatch 2>err.log` found `ESC[?25h` in err.log. This one writes it only to a terminal: the one the cursor was
 * hidden on (Ink draws on stdout), else stderr when that is one.
 */
import process from 'node:process';

let registered = false;

export default function restoreCursor(): void {
	if (registered) {
		return;
	}

	registered = true;
	// A plain 'exit' listener runs after signal-exit's, i.e. after Ink's own unmount has shown the cursor.
	process.once('exit', () => {
		const terminal = process.stdout.isTTY ? process.stdout : process.stderr.isTTY ? process.stderr : undefined;
		terminal?.write('\u001B[?25h');
	});
}
