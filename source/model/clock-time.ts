/**
 * Wall-clock times for text output. The time zone is a parameter (default: the machine's) so golden tests are
 * deterministic without touching process.env.TZ.
 */
import {lastRunNote} from './adapt-kudo-instance.js';
import {isoMs} from './iso-time.js';
import type {AsOf} from './as-of.js';

const formats = new Map<string, Intl.DateTimeFormat>();

function parts(ms: number, timeZone: string | undefined): Record<string, string> {
	const key = timeZone ?? '';
	let format = formats.get(key);
	if (!format) {
		format = new Intl.DateTimeFormat('en-CA', {
			timeZone,
			hourCycle: 'h23',
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit',
		});
		formats.set(key, format);
	}

	return Object.fromEntries(format.formatToParts(ms).map(p => [p.type, p.value]));
}

/** `11:03:22`. */
export function timeOfDay(ms: number, timeZone?: string): string {
	const p = parts(ms, timeZone);
	return `${p['hour']}:${p['minute']}:${p['second']}`;
}

/** `11:03:22` when `ms` falls on the same day as `now`, else `2021-06-10 09:14:41`. */
export function clockTime(ms: number, now: number, timeZone?: string): string {
	const p = parts(ms, timeZone);
	const today = parts(now, timeZone);
	if (p['year'] === today['year'] && p['month'] === today['month'] && p['day'] === today['day']) {
		return `${p['hour']}:${p['minute']}:${p['second']}`;
	}

	return `${p['year']}-${p['month']}-${p['day']} ${p['hour']}:${p['minute']}:${p['second']}`;
}

/** `2021-06-10 09:14:41`: a moment that may be any day (a snapshot's `as of`). */
export function dateTime(ms: number, timeZone?: string): string {
	const p = parts(ms, timeZone);
	return `${p['year']}-${p['month']}-${p['day']} ${p['hour']}:${p['minute']}:${p['second']}`;
}

/** A static snapshot's moment, as every view says it: `as of 2021-06-10 09:14:41`. */
export function asOfText(asOf: AsOf, timeZone?: string): string {
	// Files that record no time at all: the picture is as of when planwatch read them.
	return `${asOf.recorded ? 'as of' : 'as read'} ${dateTime(asOf.at, timeZone)}`;
}

/** The zone's name as the header shows it: the IANA name (`Europe/Berlin`, `UTC`). */
export function zoneName(timeZone?: string): string {
	return timeZone ?? new Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'local time';
}

/** A node's note for a view: `last run` gets the plan's update time in the view's zone. */
export function noteText(node: {readonly note?: string; readonly updatedAt?: string}, now: number, timeZone?: string): string | undefined {
	const at = isoMs(node.updatedAt);
	return node.note === lastRunNote && at !== undefined ? `${lastRunNote} ${clockTime(at, now, timeZone)}` : node.note;
}
