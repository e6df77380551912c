/** The json printer: `-o json` (one document) and its NDJSON stream (snapshot, transitions, snapshot, result). */
import {renderJsonChunks, resultLine, snapshotLine, transitionLine} from './json.js';
import type {Printer} from './printer.js';

export function jsonPrinter(): Printer {
	return {
		picture: snapshot => renderJsonChunks(snapshot),
		started: (snapshot, at) => snapshotLine(snapshot, at),
		transition: t => transitionLine(t),
		// NDJSON readers get the connection in each snapshot; a note has no line type of its own.
		note: () => '',
		finished: (snapshot, result, at) => snapshotLine(snapshot, at) + resultLine(result, at),
	};
}
