import {describe, expect, test} from 'vitest';
import {adaptEvent} from '../../source/model/adapt-event.js';
import {loadFixture} from '../helpers/fixtures.js';

/** The optional fields the fixture may carry (uid and resourceVersion), as adapted: pinned by their own test. */
function pick<T extends object>(o: T | undefined, ...keys: Array<keyof T>): Partial<T> {
	return Object.fromEntries(keys.filter(k => o?.[k] !== undefined).map(k => [k, o![k]])) as Partial<T>;
}

describe('core/v1 Events', () => {
	test('Kanister events of a successful backup', () => {
		const events = loadFixture('kanister/events-mysql-backup-complete.yaml').map(e => adaptEvent(e));
		expect(events).toHaveLength(6);
		expect(events[0]).toEqual({
			uid: 'kanister/backup-rslmb.184f28d1a2b3c401',
			namespace: 'kanister',
			involvedKind: 'ActionSet',
			involvedName: 'backup-rslmb',
			type: 'Normal',
			reason: 'Started Action',
			message: 'Executing action backup',
			time: '2025-06-02T09:56:32Z',
			count: 1,
			...pick(events[0], 'involvedUid', 'revision'),
		});
		expect(events.map(e => e?.reason)).toEqual(['Started Action', 'Started Phase', 'Ended Phase', 'Started deferPhase', 'Ended deferPhase', 'Update Complete']);
	});

	test('KUDO events, including a Warning with the fatal error', () => {
		const [started, failed] = loadFixture('kudo/events-mysql-restore-fatal-error.yaml').map(e => adaptEvent(e));
		expect(started).toMatchObject({involvedKind: 'Instance', involvedName: 'mysql-instance', reason: 'PlanStarted', time: '2021-06-10T11:05:12Z'});
		expect(failed).toMatchObject({type: 'Warning', reason: 'FailedTerminalStateError'});
		expect(failed?.message).toMatch(/^Error during execution: fatal error: default\/mysql-instance failed in restore/);
	});

	test('the involved object\'s uid and the event\'s resourceVersion (digits only) are kept for ordering', () => {
		const base = {apiVersion: 'v1', kind: 'Event', involvedObject: {kind: 'Instance', name: 'i', namespace: 'ns', uid: 'inst-uid'}};
		expect(adaptEvent({...base, metadata: {uid: 'u', resourceVersion: '000120'}})).toMatchObject({involvedUid: 'inst-uid', revision: '120'});
		expect(adaptEvent({...base, metadata: {uid: 'u', resourceVersion: 'opaque-v2'}})?.revision).toBeUndefined();
		expect(adaptEvent({...base, metadata: {uid: 'u', resourceVersion: '0'}})?.revision).toBe('0');
	});

	test('time falls back from lastTimestamp to eventTime, firstTimestamp, then creationTimestamp; count defaults to 1', () => {
		const base = {apiVersion: 'v1', kind: 'Event', involvedObject: {kind: 'ActionSet', name: 'a', namespace: 'ns'}};
		expect(adaptEvent({...base, metadata: {uid: 'u'}, lastTimestamp: '2025-01-01T00:00:03Z', eventTime: '2025-01-01T00:00:02Z'})?.time).toBe(
			'2025-01-01T00:00:03Z',
		);
		expect(adaptEvent({...base, metadata: {uid: 'u'}, lastTimestamp: null, eventTime: '2025-01-01T00:00:02.123456Z'})?.time).toBe('2025-01-01T00:00:02.123Z');
		expect(adaptEvent({...base, metadata: {uid: 'u'}, firstTimestamp: '2025-01-01T00:00:01Z'})?.time).toBe('2025-01-01T00:00:01Z');
		const oldest = adaptEvent({...base, metadata: {uid: 'u', creationTimestamp: new Date('2025-01-01T00:00:00Z') as unknown as string}});
		expect(oldest?.time).toBe('2025-01-01T00:00:00Z');
		expect(oldest?.count).toBe(1);
		expect(adaptEvent({...base, metadata: {uid: 'u'}, count: 7})?.count).toBe(7);
		expect(adaptEvent({...base, metadata: {uid: 'u'}, count: -2})?.count).toBe(1);
		expect(adaptEvent({...base, metadata: {uid: 'u'}, lastTimestamp: 'not a time'})?.time).toBeUndefined();
	});
});

describe('events.k8s.io/v1 Events', () => {
	test('regarding, note, series', () => {
		const e = adaptEvent({
			apiVersion: 'events.k8s.io/v1',
			kind: 'Event',
			metadata: {name: 'x.1', namespace: 'kanister', uid: 'uid-1'},
			regarding: {kind: 'ActionSet', name: 'backup-x', namespace: 'kanister'},
			reason: 'Started Phase',
			note: 'Executing phase dump',
			type: 'Normal',
			eventTime: '2025-06-02T09:56:32.000000Z',
			series: {count: 3, lastObservedTime: '2025-06-02T09:58:00.000000Z'},
		});
		expect(e).toEqual({
			uid: 'uid-1',
			namespace: 'kanister',
			involvedKind: 'ActionSet',
			involvedName: 'backup-x',
			type: 'Normal',
			reason: 'Started Phase',
			message: 'Executing phase dump',
			time: '2025-06-02T09:58:00Z',
			count: 3,
		});
	});

	test('deprecated timestamps and count', () => {
		const e = adaptEvent({
			apiVersion: 'events.k8s.io/v1',
			kind: 'Event',
			metadata: {uid: 'u'},
			regarding: {kind: 'Instance', name: 'i', namespace: 'n'},
			deprecatedLastTimestamp: '2021-01-01T00:00:05Z',
			deprecatedCount: 4,
		});
		expect(e).toMatchObject({time: '2021-01-01T00:00:05Z', count: 4, message: ''});
	});
});

describe('hostile and foreign input', () => {
	test('every string is sanitized', () => {
		const e = adaptEvent({
			apiVersion: 'v1',
			kind: 'Event',
			metadata: {uid: 'u\u001B[2J'},
			involvedObject: {kind: 'Action\u202ESet', name: 'evil\u001B]0;title\u0007', namespace: 'ns\u200B'},
			reason: 'Started\u0007 Phase',
			message: 'line one\r\nline two \u001B]52;c;cm0gLXJm\u0007\u009B2J',
			type: 'Warning\u001B[31m',
		});
		expect(e).toMatchObject({
			uid: 'u',
			involvedKind: 'ActionSet',
			involvedName: 'evil',
			namespace: 'ns',
			reason: 'Started Phase',
			message: 'line one ⏎ line two ',
			type: 'Warning',
		});
	});

	test('not an event, or about nothing', () => {
		expect(adaptEvent({apiVersion: 'v1', kind: 'Pod'})).toBeUndefined();
		expect(adaptEvent({apiVersion: 'example.com/v1', kind: 'Event', involvedObject: {name: 'x'}})).toBeUndefined();
		expect(adaptEvent({apiVersion: 'v1', kind: 'Event'})).toBeUndefined();
		expect(adaptEvent({apiVersion: 'v1', kind: 'Event', involvedObject: 'nonsense'})).toBeUndefined();
	});
});
