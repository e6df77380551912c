/**
 * `--once` for plain and json: one picture of a synced snapshot and the exit code it implies.
 */
import type {Expectation} from '../model/eta.js';
import type {PlanObject} from '../model/plan-tree.js';
import type {AsOf} from '../model/as-of.js';
import {printerFor} from '../render/printer.js';
import type {StoreSnapshot} from '../state/store.js';
import {onceExitCode} from './describe-error.js';

export type DrawOnceOptions = {
	readonly output: 'plain' | 'json';
	readonly ascii: boolean;
	readonly color: boolean;
	readonly now: number;
	readonly timeZone?: string;
	/** Past runs, for the `eta` keys of json (none without a history). */
	readonly expectations?: (object: PlanObject) => ReadonlyMap<string, Expectation>;
	/** A static snapshot's moment (`now` is it): plain's headers say `as of …`, json gets `"asOf"`. */
	readonly asOf?: AsOf;
};

/** The text comes in chunks to write one after the other (json: one per object, so a big picture is never whole). */
export function drawOnce(
	snapshot: StoreSnapshot,
	options: DrawOnceOptions,
): {readonly chunks: Iterable<string>; readonly exitCode: number} {
	const printer = printerFor(options.output, {
		ascii: options.ascii,
		color: options.color,
		timeZone: options.timeZone,
		expectations: options.expectations,
		...(options.asOf ? {asOf: options.asOf} : {}),
	});
	return {chunks: printer.picture(snapshot, options.now), exitCode: onceExitCode(snapshot.objects)};
}
