import {describe, expect, it} from 'vitest';
import {readdirSync, readFileSync} from 'node:fs';
import {fileURLToPath} from 'node:url';
import {readKanisterEvent, readKanisterEvents, type KanisterEventFacts} from '../../source/model/kanister-events.js';
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
			{phaseFailed: [['backup/a\\"b', {time: t(5), error: 'boom'}]], latest: t(5)},
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
		[
			'a phase dump in a message that is no phase failure: the action\'s failure, not the phase\'s',
			event(t(5), 'ActionSetFailed Action: backup', `Failed to render output artifacts: ${phaseStruct('dump')}: x`),
			{actionFailed: [['backup', {time: t(5), error: `${phaseStruct('dump')}: x`, what: 'render artifacts'}]], latest: t(5)},
		],
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
		['a failure the controller does not write: nothing', event(t(9), 'ActionSetFailed Action: backup', 'Failed to frobnicate: x'), {latest: t(9)}],

		// Every other shape kanisterio/kanister pkg/controller/controller.go writes (logAndErrorEvent: `msg + " " + err`).
		[
			'a phase whose params did not init: the phase failed',
			event(t(5), 'ActionSetFailed Action: backup', `Failed to init phase params: ${phaseStruct('dump')}: no such secret`),
			{phaseFailed: [['backup/dump', {time: t(5), error: 'no such secret'}]], latest: t(5)},
		],
		[
			'a phase whose result could not be written',
			event(t(5), 'ActionSetFailed Action: slow', `Failed to update phase: ${phaseStruct('waitLong')}: client rate limiter Wait returned an error: context canceled`),
			{phaseUpdateFailed: [['slow/waitLong', {time: t(5), error: 'client rate limiter Wait returned an error: context canceled'}]], latest: t(5)},
		],
		['an update failure naming no phase: nothing to attach it to', event(t(5), 'ActionSetFailed Action: slow', 'Failed to update phase: gone'), {latest: t(5)}],
		[
			'a deferPhase whose result could not be written',
			event(t(6), 'ActionSetFailed Action: slow', `Failed to update defer phase: ${phaseStruct('cleanupSlow')}: context canceled`),
			{deferUpdateFailed: [['slow', {time: t(6), error: 'context canceled'}]], latest: t(6)},
		],
		[
			'the initial action status (an action the Blueprint lacks)',
			event(t(1), 'ActionSetFailed Action: backup', 'Could not get initial action: Action backup for object kind Namespace not found in blueprint bp'),
			{actionFailed: [['backup', {time: t(1), error: 'Action backup for object kind Namespace not found in blueprint bp', what: 'initial action'}]], latest: t(1)},
		],
		[
			'artifacts that would not render (no colon before the error)',
			event(t(9), 'ActionSetFailed Action: backup', 'Failed to render output artifacts template: executing "x" at <.Phases.dump>: map has no entry for key "dump"'),
			{actionFailed: [['backup', {time: t(9), error: 'template: executing "x" at <.Phases.dump>: map has no entry for key "dump"', what: 'render artifacts'}]], latest: t(9)},
		],
		[
			'rendered artifacts that could not be written: the error after the map\'s dump',
			event(
				t(9),
				'ActionSetFailed Action: backup',
				'Failed to update Output Artifacts: map[string]v1alpha1.Artifact{"dump":v1alpha1.Artifact{KeyValue:map[string]string{"p":"{{ .Phases.dump.Output.p }}"}, KopiaSnapshot:""}}: conflict',
			),
			{actionFailed: [['backup', {time: t(9), error: 'conflict', what: 'update artifacts'}]], latest: t(9)},
		],
		[
			'the final update that failed: the error after the ActionSet\'s name',
			event(t(9), 'ActionSetFailed Action: backup', 'Failed to update ActionSet: backup-x actionsets.cr.kanister.io "backup-x" not found'),
			{actionFailed: [['backup', {time: t(9), error: 'actionsets.cr.kanister.io "backup-x" not found', what: 'update ActionSet'}]], latest: t(9)},
		],
		[
			'the controller\'s validation refused the ActionSet',
			event(t(2), 'Error', 'Callback onUpdateActionSet() failed: Number of actions in status actions and spec must match: Validation Failed'),
			{objectError: {time: t(2), error: 'Number of actions in status actions and spec must match: Validation Failed', what: 'rejected'}, latest: t(2)},
		],
		['the delete callback failed', event(t(2), 'Error', 'Callback onDeleteActionSet() failed: x'), {objectError: {time: t(2), error: 'x', what: 'delete'}, latest: t(2)}],
		[
			'the Blueprint could not be read',
			event(t(2), 'Error', 'Could not get blueprint: Failed to query blueprint: blueprints.cr.kanister.io "nope" not found'),
			{objectError: {time: t(2), error: 'Failed to query blueprint: blueprints.cr.kanister.io "nope" not found', what: 'blueprint'}, latest: t(2)},
		],
		[
			'no Blueprint named',
			event(t(2), 'Blueprint not specified', 'Could not get blueprint: Blueprint is not specified for action'),
			{objectError: {time: t(2), error: 'Blueprint is not specified for action', what: 'blueprint'}, latest: t(2)},
		],
		[
			'the initial status could not be written',
			event(t(2), 'Update Failed', 'Could not update ActionSet: the server rejected our request'),
			{objectError: {time: t(2), error: 'the server rejected our request', what: 'update'}, latest: t(2)},
		],
		['an object error under another reason: nothing', event(t(2), 'Other', 'Could not get blueprint: x'), {latest: t(2)}],
		['the controller saw it complete', event(t(3), 'Update Complete', "Updated ActionSet 'as' Status->complete"), {completedAt: t(3), latest: t(3)}],
		['Update Complete with another state: nothing', event(t(3), 'Update Complete', "Updated ActionSet 'as' Status->failed"), {latest: t(3)}],
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

describe('readKanisterEvent: what the real controller wrote (test/fixtures/kanister-recorded/*.watch.ndjson)', () => {
	const dir = fileURLToPath(new URL('../fixtures/kanister-recorded/', import.meta.url));
	const recorded = readdirSync(dir)
		.filter(f => f.endsWith('.watch.ndjson'))
		.flatMap(f => readFileSync(dir + f, 'utf8').split('\n').filter(Boolean))
		.map(line => (JSON.parse(line) as {object?: {kind?: string; reason?: string; message?: string; involvedObject?: {kind?: string}}}).object)
		.filter(o => o?.kind === 'Event' && o.involvedObject?.kind === 'ActionSet');

	it('every Event the controller wrote about an ActionSet is read, none falls through', () => {
		expect(recorded.length).toBeGreaterThan(20);
		const unread = recorded.filter(o => readKanisterEvent(o!.reason ?? '', o!.message ?? '') === undefined).map(o => `${o!.reason}: ${o!.message}`);
		expect(unread).toEqual([]);
	});

	it('the deleted ActionSet\'s "Failed to update (defer) phase" warnings name the phase and keep only the error', () => {
		const kinds = recorded.map(o => readKanisterEvent(o!.reason ?? '', o!.message ?? '')).filter(m => m?.kind === 'phase update failed' || m?.kind === 'defer update failed');
		expect(kinds).toEqual([
			{kind: 'phase update failed', action: 'slow', phase: 'waitLong', error: 'client rate limiter Wait returned an error: context canceled'},
			{kind: 'defer update failed', action: 'slow', error: 'client rate limiter Wait returned an error: context canceled'},
		]);
	});
});
