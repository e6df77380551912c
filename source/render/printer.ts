/**
 * One printer per output format, as kubectl's printers (k8s.io/cli-runtime pkg/printers/interface.go): the CLI
 * picks the printer once and calls one method per thing it prints, never branching on the format itself.
 */
import type {Expectation} from '../model/eta.js';
import type {PlanObject} from '../model/plan-tree.js';
import type {AsOf} from '../model/as-of.js';
import type {StoreSnapshot, Transition} from '../state/store.js';
import {jsonPrinter} from './json-printer.js';
import {plainPrinter} from './plain-printer.js';

export type PrinterOptions = {
	readonly ascii: boolean;
	readonly color: boolean;
	/** IANA zone for times of day; default: the machine's. */
	readonly timeZone?: string;
	/** Past runs, for the `eta` keys of json (none without a history). */
	readonly expectations?: (object: PlanObject) => ReadonlyMap<string, Expectation>;
	/** `--plan NAME`: what a target deleted while waited for is judged by (as the wait judges it). */
	readonly plan?: string;
	/** A static snapshot (`-f`): the moment the picture is of (`now` then is it). */
	readonly asOf?: AsOf;
};

/** The objects to print with what is known about them. */
export type PrintedSnapshot = Pick<StoreSnapshot, 'objects' | 'timings' | 'events' | 'missing'>
	& Partial<Pick<StoreSnapshot, 'deleted' | 'workloads' | 'limited' | 'synced'>>;

export type Printer = {
	/** `--once`: the whole picture, in chunks written one after the other (a big picture is never one string). */
	picture(snapshot: PrintedSnapshot, now: number): Iterable<string>;
	/** A live run, once the first complete list is in: the objects as they are. */
	started(snapshot: PrintedSnapshot, at: number): string;
	/** A live run: one status change. */
	transition(t: Transition): string;
	/** A live run: something about the connection or what cannot be watched (empty where the format has no place for it). */
	note(text: string, at: number): string;
	/** A live run: under a failed node, why it failed or the command to run next (each once; empty where the format has no place). */
	explain(part: 'why' | 'next', text: string, at: number): string;
	/** A live run's end: the final picture and how the run ended. */
	finished(snapshot: PrintedSnapshot, result: {readonly exitCode: number; readonly message: string}, at: number): string;
};

export function printerFor(output: 'plain' | 'json', options: PrinterOptions): Printer {
	return output === 'json' ? jsonPrinter(options) : plainPrinter(options);
}
