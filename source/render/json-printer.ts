/** The json printer: `-o json` (one document) and its NDJSON stream (snapshot, transitions, snapshot, result). */
import {renderJsonChunks, resultLine, snapshotLine, transitionLine} from './json.js';
import type {Printer, PrinterOptions} from './printer.js';

export function jsonPrinter(options: Pick<PrinterOptions, 'expectations' | 'asOf'> = {}): Printer {
	const {expectations, asOf} = options;
	return {
		picture: (snapshot, now) => renderJsonChunks(snapshot, expectations && {expectations, timings: snapshot.timings, now}, asOf),
		started: (snapshot, at) => snapshotLine(snapshot, at, expectations && {expectations, timings: snapshot.timings}),
		transition: t => transitionLine(t),
		// NDJSON readers get the connection in each snapshot; a note has no line type of its own.
		note: () => '',
		// The nodes of every snapshot line carry `cause`, `resources`, `pods`, `logTail` and `next`.
		explain: () => '',
		finished: (snapshot, result, at) =>
			snapshotLine(snapshot, at, expectations && {expectations, timings: snapshot.timings}) + resultLine(result, at),
	};
}
