import type {KubeObject} from '../core/kube-object.js';
import type {PlanEvent} from './plan-tree.js';
import {isoTime, rawString, record} from './read-raw.js';
import {maxMessageLength, maxNameLength, sanitizeLine} from './sanitize.js';

/**
 * core/v1 Event or events.k8s.io/v1 Event → PlanEvent, sanitized; undefined when it is not an Event or names no
 * object. Time is the latest occurrence the event records; count defaults to 1 (Kanister never aggregates).
 */
export function adaptEvent(event: KubeObject): PlanEvent | undefined {
	if (event.kind !== 'Event') {
		return undefined;
	}

	const meta = record(event.metadata);
	let involved;
	let message: unknown;
	let time: string | undefined;
	let count: unknown;
	if (event.apiVersion === 'v1') {
		involved = record(event['involvedObject']);
		message = event['message'];
		time = isoTime(event['lastTimestamp']) ?? isoTime(event['eventTime']) ?? isoTime(event['firstTimestamp']);
		count = event['count'];
	} else if (event.apiVersion === 'events.k8s.io/v1') {
		involved = record(event['regarding']);
		message = event['note'];
		const series = record(event['series']);
		time =
			isoTime(series['lastObservedTime']) ??
			isoTime(event['deprecatedLastTimestamp']) ??
			isoTime(event['eventTime']) ??
			isoTime(event['deprecatedFirstTimestamp']);
		count = series['count'] ?? event['deprecatedCount'];
	} else {
		return undefined;
	}

	const involvedName = sanitizeLine(involved['name'], maxNameLength);
	if (!involvedName) {
		return undefined;
	}

	time ??= isoTime(meta['creationTimestamp']);
	const involvedUid = sanitizeLine(involved['uid'], maxNameLength);
	const version = rawString(meta['resourceVersion']);
	const n = typeof count === 'number' && Number.isSafeInteger(count) && count > 0 ? count : 1;
	return {
		uid: sanitizeLine(rawString(meta['uid']) || `${rawString(meta['namespace'])}/${rawString(meta['name'])}`, maxNameLength),
		namespace: sanitizeLine(rawString(involved['namespace']) || rawString(meta['namespace']), maxNameLength),
		involvedKind: sanitizeLine(involved['kind'], maxNameLength),
		involvedName,
		type: sanitizeLine(event['type'], 40),
		reason: sanitizeLine(event['reason'], 200),
		message: sanitizeLine(message, maxMessageLength),
		time,
		count: n,
		...(involvedUid ? {involvedUid} : {}),
		...(/^\d{1,30}$/.test(version) ? {revision: version.replace(/^0+(?=\d)/, '')} : {}),
	};
}
