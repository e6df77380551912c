import {describe, expect, it} from 'vitest';
import {readKanisterEvents, type KanisterEventFacts} from '../../source/model/kanister-events.js';
import type {PlanEvent} from '../../source/model/plan-tree.js';

/*
 * What each Event the Kanister controller writes (pkg/controller/controller.go logAndSuccessEvent /
 * logAndErrorEvent) says to the verdict: which phase started or ended when, which deferPhase ran how often,
 * which action failed to launch (its deferPhase never runs) and which phase failed with what error.
 */

let n = 0;
const t = (s: number): string => `2025-01-01T00:00:${String(s).padStart(2, '0')}Z`;
function event(time: string | undefined, reason: string, message: string, extra: Partial<PlanEvent> = {}): PlanEvent {
	return {uid: `e${n++}`, namespace: 'ns', involvedKind: 'ActionSet', involvedName: 'as', type: 'Normal', reason, message, ...(time === undefined ? {} : {time}), count: 1, ...extra};
}

const read = (events: readonly PlanEvent[], createdAt?: string): KanisterEventFacts => readKanisterEvents(events, 'ns', 'as', createdAt);

/** The facts as plain data, the maps as entry lists, the empty ones left out. */
function plain(facts: KanisterEventFacts): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	for (const [k, v] of Object.entries(facts)) {
		if (v instanceof Map) {
			if (v.size > 0) {
				out[k] = [...v.entries()];
			}
		} else {
			out[k] = v;
		}
	}

	return out;
}

const phaseStruct = (name: string): string =>
	`v1alpha1.Phase{Name:"${name}", State:"pending", Output:map[string]interface {}(nil), Progress:v1alpha1.PhaseProgress{ProgressPercent:"", LastTransitionTime:(*v1.Time)(nil)}}`;

describe('readKanisterEvents: one event at a time', () => {
	it.each<[string, PlanEvent, Record<string, unknown>]>([
		['an action started', event(t(1), 'Started Action', 'Executing action backup'), {actionStarted: [['backup', t(1)]], latest: t(1)}],
		['a phase started', event(t(1), 'Started Phase', 'Executing phase dump'), {phaseStarted: [['dump', t(1)]], latest: t(1)}],
		['a phase ended', event(t(2), 'Ended Phase', 'Completed phase dump'), {phaseEnded: [['dump', t(2)]], latest: t(2)}],
		[
			'a deferPhase started, counted by the event count',
			event(t(3), 'Started deferPhase', 'Executing deferPhase cleanup', {count: 3}),
			{deferStarted: [['cleanup', t(3)]], deferStartCount: [['cleanup', 3]], latest: t(3)},
		],
		[
			'a deferPhase ended, counted by the event count',
			event(t(4), 'Ended deferPhase', 'Completed deferPhase cleanup', {count: 2}),
			{deferEnded: [['cleanup', t(4)]], deferEndCount: [['cleanup', 2]], latest: t(4)},
		],
		['the name trimmed', event(t(1), 'Started Phase', 'Executing phase  dump '), {phaseStarted: [['dump', t(1)]], latest: t(1)}],
		['a start with no time: started, the time unknown', event(undefined, 'Started Phase', 'Executing phase dump'), {phaseStarted: [['dump', '']]}],
		['a reason with a message that is not its own: nothing', event(t(1), 'Started Phase', 'Executing action dump'), {latest: t(1)}],
		['an end message under a start reason: nothing', event(t(1), 'Started deferPhase', 'Completed deferPhase cleanup'), {latest: t(1)}],
		['a start message under an end reason: nothing', event(t(1), 'Ended deferPhase', 'Executing deferPhase cleanup'), {latest: t(1)}],
		['an action start message under a phase reason: nothing', event(t(1), 'Started Action', 'Executing phase dump'), {latest: t(1)}],
		['an end message under the phase end reason only', event(t(1), 'Ended Phase', 'Completed deferPhase cleanup'), {latest: t(1)}],
		['a phase end message under another reason: nothing', event(t(1), 'Other', 'Completed phase dump'), {latest: t(1)}],
		['a reason Kanister does not write: nothing', event(t(1), 'Other', 'Executing phase dump'), {latest: t(1)}],

		// Failures: reason `ActionSetFailed Action: <action>`.
		[
			'a core phase failure: the phase from the %#v dump, the error after it',
			event(t(5), 'ActionSetFailed Action: backup', `Failed to execute phase: ${phaseStruct('dump')}: null: exit code 1`),
			{phaseFailed: [['backup/dump', {time: t(5), error: 'null: exit code 1'}]], latest: t(5)},
		],
		[
			'an error holding `: ` after the dump is kept whole',
			event(t(5), 'ActionSetFailed Action: backup', `Failed to execute phase: ${phaseStruct('dump')}: a: b`),
			{phaseFailed: [['backup/dump', {time: t(5), error: 'a: b'}]], latest: t(5)},
		],
		[
			'a phase name with an escaped quote',
			event(t(5), 'ActionSetFailed Action: backup', 'Failed to execute phase: v1alpha1.Phase{Name:"a\\"b"}: boom'),
			{phaseFailed: [['backup/a\\"b', {time: t(5), error: 'v1alpha1.Phase{Name:"a\\"b"}: boom'}]], latest: t(5)},
		],
		['a failure naming no phase: nothing to attach it to', event(t(5), 'ActionSetFailed Action: backup', 'Failed to execute phase: boom'), {latest: t(5)}],
		[
			'a deferPhase failure: by action, the error after the first colon',
			event(t(6), 'ActionSetFailed Action: backup', 'Failed to execute defer phase: scale failed: timeout'),
			{deferFailed: [['backup', {time: t(6), error: 'scale failed: timeout'}]], latest: t(6)},
		],
		[
			'a deferPhase failure with a phase dump',
			event(t(6), 'ActionSetFailed Action: backup', `Failed to execute defer phase: ${phaseStruct('cleanup')}: gone`),
			{deferFailed: [['backup', {time: t(6), error: 'gone'}]], latest: t(6)},
		],
		['a deferPhase failure without an error', event(t(6), 'ActionSetFailed Action: backup', 'Failed to execute defer phase'), {deferFailed: [['backup', {time: t(6), error: ''}]], latest: t(6)}],
		['the action name trimmed', event(t(6), 'ActionSetFailed Action:  backup ', 'Failed to execute defer phase: x'), {deferFailed: [['backup', {time: t(6), error: 'x'}]], latest: t(6)}],
		[
			'a launch failure',
			event(t(7), 'ActionSetFailed Action: backup', 'Failed to launch Action as: blueprint not found'),
			{launchFailed: [['backup', {time: t(7), error: 'blueprint not found'}]], latest: t(7)},
		],
		[
			'a launch failure, the wording before 2018',
			event(t(7), 'ActionSetFailed Action: backup', 'Failed launch Action as: x: y'),
			{launchFailed: [['backup', {time: t(7), error: 'x: y'}]], latest: t(7)},
		],
		['a launch failure without an error', event(t(7), 'ActionSetFailed Action: backup', 'Failed to launch Action as'), {launchFailed: [['backup', {time: t(7), error: ''}]], latest: t(7)}],
		['not a launch failure when the words come later', event(t(7), 'ActionSetFailed Action: backup', 'x Failed to launch Action as: y'), {latest: t(7)}],
		[
			'a legacy phase failure: its index and error',
			event(t(8), 'ActionSetFailed Action: backup', 'Failed to run phase 2 of action backup: oops: bad'),
			{legacyPhaseFailed: [['backup', {index: 2, time: t(8), error: 'oops: bad'}]], latest: t(8)},
		],
		[
			'a phase name holding the struct\'s end: the error after the progress struct',
			event(t(5), 'ActionSetFailed Action: backup', `Failed to execute phase: ${phaseStruct('x}}: y')}: boom`),
			{phaseFailed: [['backup/x}}: y', {time: t(5), error: 'boom'}]], latest: t(5)},
		],
		[
			'a dump without the progress struct (its end unknown): everything after the first colon',
			event(t(5), 'ActionSetFailed Action: backup', 'Failed to execute phase: v1alpha1.Phase{Name:"dump", Output:map{a:{}}: boom'),
			{phaseFailed: [['backup/dump', {time: t(5), error: 'v1alpha1.Phase{Name:"dump", Output:map{a:{}}: boom'}]], latest: t(5)},
		],
		[
			'a progress struct that does not end in `}}: `: everything after the first colon',
			event(t(5), 'ActionSetFailed Action: backup', 'Failed to execute phase: v1alpha1.Phase{Name:"dump", Progress:v1alpha1.PhaseProgress{}} boom'),
			{phaseFailed: [['backup/dump', {time: t(5), error: 'v1alpha1.Phase{Name:"dump", Progress:v1alpha1.PhaseProgress{}} boom'}]], latest: t(5)},
		],
		['a phase dump in a message that is no phase failure: nothing', event(t(5), 'ActionSetFailed Action: backup', `Failed to render output artifacts: ${phaseStruct('dump')}: x`), {latest: t(5)}],
		[
			'a legacy failure with a two-digit index',
			event(t(8), 'ActionSetFailed Action: backup', 'Failed to run phase 12 of action backup: e'),
			{legacyPhaseFailed: [['backup', {index: 12, time: t(8), error: 'e'}]], latest: t(8)},
		],
		[
			'a legacy failure with an empty error',
			event(t(8), 'ActionSetFailed Action: backup', 'Failed to run phase 0 of action backup: '),
			{legacyPhaseFailed: [['backup', {index: 0, time: t(8), error: ''}]], latest: t(8)},
		],
		['not a legacy failure when the words come later', event(t(8), 'ActionSetFailed Action: backup', 'x Failed to run phase 1 of action backup: e'), {latest: t(8)}],
		['a failure under another reason: nothing', event(t(8), 'ActionSetFailed', 'Failed to execute defer phase: x'), {latest: t(8)}],
		['a failure of another kind: nothing', event(t(9), 'ActionSetFailed Action: backup', 'Failed to render output artifacts: x'), {latest: t(9)}],
	])('%s', (_, e, want) => {
		expect(plain(read([e]))).toEqual(want);
	});

	it('says nothing, not even a latest time, without events', () => {
		expect(plain(read([]))).toEqual({});
		expect('latest' in read([])).toBe(false);
		expect('latest' in read([event(undefined, 'Started Phase', 'Executing phase a')])).toBe(false);
	});
});

describe('readKanisterEvents: which events count, and in which order', () => {
	it('keeps the events of this ActionSet: its kind, name and namespace (or none), from its creation on', () => {
		const facts = read(
			[
				event(t(2), 'Started Phase', 'Executing phase kind', {involvedKind: 'Blueprint'}),
				event(t(2), 'Started Phase', 'Executing phase name', {involvedName: 'other'}),
				event(t(2), 'Started Phase', 'Executing phase namespace', {namespace: 'elsewhere'}),
				event(t(2), 'Started Phase', 'Executing phase no-namespace', {namespace: ''}),
				event(t(0), 'Started Phase', 'Executing phase before'),
				event(t(1), 'Started Phase', 'Executing phase at-creation'),
				event(undefined, 'Started Phase', 'Executing phase no-time'),
			],
			t(1),
		);
		expect([...facts.phaseStarted.keys()].sort()).toEqual(['at-creation', 'no-namespace', 'no-time']);
	});

	it('keeps old events when the creation time is unknown', () => {
		expect([...read([event(t(0), 'Started Phase', 'Executing phase old')]).phaseStarted.keys()]).toEqual(['old']);
	});

	it('applies the events by time, whatever order they arrive in: a phase started again has not ended', () => {
		const restarted = read([event(t(3), 'Started Phase', 'Executing phase a'), event(t(2), 'Ended Phase', 'Completed phase a'), event(t(1), 'Started Phase', 'Executing phase a')]);
		expect([restarted.phaseStarted.get('a'), restarted.phaseEnded.has('a')]).toEqual([t(3), false]);
		const ended = read([event(t(2), 'Ended Phase', 'Completed phase a'), event(t(1), 'Started Phase', 'Executing phase a')]);
		expect([ended.phaseStarted.get('a'), ended.phaseEnded.get('a')]).toEqual([t(1), t(2)]);
		expect(ended.latest).toBe(t(2));
	});

	it('applies events of the same second in the order they came', () => {
		const startThenEnd = read([event(t(1), 'Started Phase', 'Executing phase a'), event(t(1), 'Ended Phase', 'Completed phase a')]);
		expect(startThenEnd.phaseEnded.get('a')).toBe(t(1));
		const endThenStart = read([event(t(1), 'Ended Phase', 'Completed phase a'), event(t(1), 'Started Phase', 'Executing phase a')]);
		expect(endThenStart.phaseEnded.has('a')).toBe(false);
		const deferEndThenStart = read([event(t(1), 'Ended deferPhase', 'Completed deferPhase d'), event(t(1), 'Started deferPhase', 'Executing deferPhase d')]);
		expect(deferEndThenStart.deferEnded.has('d')).toBe(false);
		const three = read([event(t(1), 'Started Action', 'Executing action x'), event(t(1), 'Ended Phase', 'Completed phase a'), event(t(1), 'Started Phase', 'Executing phase a')]);
		expect(three.phaseEnded.has('a')).toBe(false);
	});

	it('counts the starts and ends of deferPhases of one name across actions', () => {
		const facts = read([
			event(t(1), 'Started deferPhase', 'Executing deferPhase cleanup'),
			event(t(2), 'Started deferPhase', 'Executing deferPhase cleanup', {count: 2}),
			event(t(3), 'Ended deferPhase', 'Completed deferPhase cleanup'),
			event(t(4), 'Ended deferPhase', 'Completed deferPhase cleanup'),
		]);
		expect([facts.deferStartCount.get('cleanup'), facts.deferEndCount.get('cleanup')]).toEqual([3, 2]);
		expect([facts.deferStarted.get('cleanup'), facts.deferEnded.get('cleanup')]).toEqual([t(2), t(4)]);
	});

	it('takes the latest time over all the events it keeps', () => {
		expect(read([event(t(5), 'Other', 'x'), event(t(9), 'Other', 'y', {involvedName: 'other'}), event(t(7), 'Other', 'z'), event(undefined, 'Other', 'w')]).latest).toBe(t(7));
	});
});
