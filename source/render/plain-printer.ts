/** The plain printer: the tree for `--once`, and the append-only log of a live run. */
import {exitCodes} from '../core/exit-codes.js';
import {timeOfDay, zoneName} from '../model/clock-time.js';
import {noObjectsText, objectKey, qualifiedName} from '../model/plan-tree.js';
import {deletedVerdict} from '../model/wait-rules.js';
import {formatExplanation, formatFinished, formatObjectLine, formatTransition, renderPlain} from './plain.js';
import type {Printer, PrinterOptions} from './printer.js';

export function plainPrinter(options: PrinterOptions): Printer {
	// A live log's lines start with a time of day: its first line names the zone once (`times UTC`), as the tree does.
	let zoneSaid = false;
	const log = (text: string): string => {
		if (zoneSaid || text === '') {
			return text;
		}

		zoneSaid = true;
		return `times ${zoneName(options.timeZone)}\n${text}`;
	};

	return {
		// Nothing in scope (an empty namespace, a file of other kinds): one line saying so, not an empty output.
		picture: (snapshot, now) => [snapshot.objects.length === 0 ? `${noObjectsText}\n` : renderPlain(snapshot, {...options, now})],
		started: (snapshot, at) => log(snapshot.objects.length === 0
			? `${timeOfDay(at, options.timeZone)} ${noObjectsText}\n`
			: snapshot.objects.map(o => formatObjectLine(o, at, options) + '\n').join('')),
		transition: t => log(formatTransition(t, options) + '\n'),
		note: (text, at) => log(`${timeOfDay(at, options.timeZone)} ${text}\n`),
		explain: (part, text, at) => log(formatExplanation(part, text, at, options) + '\n'),
		finished(snapshot, result, at) {
			// No result line: the exit code (and for codes 2–4 a line on stderr) says it. What finished, then the tree.
			const finished = snapshot.objects
				.filter(o => o.outcome === 'succeeded' || o.outcome === 'failed')
				.map(o => formatFinished(o, snapshot.timings.get(objectKey(o)), at, options) + '\n')
				.join('');
			// Targets deleted while waited for: what became of them, and their last state's tree.
			const plan = options.plan === undefined ? {} : {plan: options.plan};
			const settled = {now: at, deferGraceMs: Number.POSITIVE_INFINITY, staleMs: 0, ...plan};
			const gone = [...(snapshot.deleted?.values() ?? [])];
			const deleted = gone.map(d =>
				`${timeOfDay(d.at, options.timeZone)} ${qualifiedName(d.object)}  DELETED  ` +
				`${deletedVerdict(d.object, undefined, settled).summary}\n`).join('');
			const tree = renderPlain(
				{objects: [...snapshot.objects, ...gone.map(d => d.object)], timings: snapshot.timings},
				{...options, now: at},
			);
			// Nothing listed at the end of a run that ended well (--wait on an empty namespace ends at once, a watch
			// of one quit): the picture says so. A run that never listed, or failed, has its own line on stderr.
			if (snapshot.objects.length === 0 && gone.length === 0 && result.exitCode === exitCodes.ok && snapshot.synced !== false) {
				return `${noObjectsText}\n`;
			}

			return finished + deleted + (tree === '' ? '' : `\n${tree}`);
		},
	};
}
