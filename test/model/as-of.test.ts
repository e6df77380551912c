import {describe, expect, it} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import {newestRecordedTime} from '../../source/model/as-of.js';
import {asOfText} from '../../source/model/clock-time.js';
import {loadFixture} from '../helpers/fixtures.js';

const ms = (iso: string): number => Date.parse(iso);

describe('newestRecordedTime: the moment a static snapshot is of', () => {
	it.each<[string, KubeObject[], number | undefined]>([
		['creation', [{metadata: {creationTimestamp: '2025-01-01T00:00:00Z'}}], ms('2025-01-01T00:00:00Z')],
		['deletion, later than creation', [{metadata: {creationTimestamp: '2025-01-01T00:00:00Z', deletionTimestamp: '2025-01-01T00:05:00Z'}}], ms('2025-01-01T00:05:00Z')],
		[
			'the last write a managedFields entry records',
			[{metadata: {creationTimestamp: '2025-01-01T00:00:00Z', managedFields: [{time: '2025-01-01T00:01:00Z'}, {time: '2025-01-01T00:09:00Z'}]}}],
			ms('2025-01-01T00:09:00Z'),
		],
		['a KUDO plan\'s lastUpdatedTimestamp', [{status: {planStatus: {deploy: {lastUpdatedTimestamp: '2025-01-02T00:00:00Z'}, backup: {}}}}], ms('2025-01-02T00:00:00Z')],
		[
			'Kanister progress, of the ActionSet, a phase and the deferPhase',
			[
				{
					status: {
						progress: {lastTransitionTime: '2025-01-01T00:00:01Z'},
						actions: [{phases: [{progress: {lastTransitionTime: '2025-01-01T00:00:03Z'}}], deferPhase: {progress: {lastTransitionTime: '2025-01-01T00:00:07Z'}}}],
					},
				},
			],
			ms('2025-01-01T00:00:07Z'),
		],
		['an Event\'s lastTimestamp', [{kind: 'Event', firstTimestamp: '2025-01-01T00:00:00Z', lastTimestamp: '2025-01-01T00:30:00Z'}], ms('2025-01-01T00:30:00Z')],
		['an events.k8s.io series', [{kind: 'Event', eventTime: '2025-01-01T00:00:00.123456Z', series: {lastObservedTime: '2025-01-01T01:00:00Z'}}], ms('2025-01-01T01:00:00Z')],
		['YAML timestamps (Date objects)', [{metadata: {creationTimestamp: new Date('2025-03-03T03:03:03Z')}} as unknown as KubeObject], ms('2025-03-03T03:03:03Z')],
		['the newest across objects', [{metadata: {creationTimestamp: '2025-01-01T00:00:00Z'}}, {metadata: {creationTimestamp: '2024-01-01T00:00:00Z'}}], ms('2025-01-01T00:00:00Z')],
		[
			'garbage and wrong types are no time',
			[{metadata: {creationTimestamp: 'yesterday', managedFields: 'x'}, status: {planStatus: [], actions: {}}, lastTimestamp: 42} as unknown as KubeObject],
			undefined,
		],
		['no objects', [], undefined],
	])('%s', (_name, objects, want) => {
		expect(newestRecordedTime(objects)).toBe(want);
	});

	it('the fixtures: a running ActionSet with the Events of its whole run is as of its last Event', () => {
		const objects = [...loadFixture('kanister/actionset-mysql-backup-running.yaml'), ...loadFixture('kanister/events-mysql-backup-complete.yaml')];
		expect(new Date(newestRecordedTime(objects)!).toISOString()).toBe('2025-06-02T09:57:19.000Z');
	});

	it('asOfText: a full date and time in the view\'s zone; "as read" when nothing was recorded', () => {
		expect(asOfText({at: ms('2025-06-02T09:57:19Z'), recorded: true}, 'UTC')).toBe('as of 2025-06-02 09:57:19');
		expect(asOfText({at: ms('2025-06-02T09:57:19Z'), recorded: true}, 'Europe/Berlin')).toBe('as of 2025-06-02 11:57:19');
		expect(asOfText({at: ms('2025-06-02T09:57:19Z'), recorded: false}, 'UTC')).toBe('as read 2025-06-02 09:57:19');
	});
});
