import {expect, test} from 'vitest';
import {readKanisterEvents} from '../../source/model/kanister-events.js';
import type {PlanEvent} from '../../source/model/plan-tree.js';

let n = 0;
function event(time: string, reason: string, message: string, extra: Partial<PlanEvent> = {}): PlanEvent {
	return {uid: `e${n++}`, namespace: 'ns', involvedKind: 'ActionSet', involvedName: 'as', type: 'Normal', reason, message, time, count: 1, ...extra};
}

test('phase and deferPhase times, whatever order the events arrive in', () => {
	const facts = readKanisterEvents(
		[
			event('2025-01-01T00:00:09Z', 'Ended deferPhase', 'Completed deferPhase cleanup'),
			event('2025-01-01T00:00:05Z', 'Ended Phase', 'Completed phase one'),
			event('2025-01-01T00:00:01Z', 'Started Action', 'Executing action backup'),
			event('2025-01-01T00:00:02Z', 'Started Phase', 'Executing phase one'),
			event('2025-01-01T00:00:06Z', 'Started deferPhase', 'Executing deferPhase cleanup'),
		],
		'ns',
		'as',
		'2025-01-01T00:00:00Z',
	);
	expect(facts.actionStarted.get('backup')).toBe('2025-01-01T00:00:01Z');
	expect([facts.phaseStarted.get('one'), facts.phaseEnded.get('one')]).toEqual(['2025-01-01T00:00:02Z', '2025-01-01T00:00:05Z']);
	expect([facts.deferStarted.get('cleanup'), facts.deferEnded.get('cleanup')]).toEqual(['2025-01-01T00:00:06Z', '2025-01-01T00:00:09Z']);
	expect(facts.latest).toBe('2025-01-01T00:00:09Z');
});

test('an end before the latest start does not count (the deferPhase started again)', () => {
	const facts = readKanisterEvents(
		[
			event('2025-01-01T00:00:01Z', 'Started deferPhase', 'Executing deferPhase '),
			event('2025-01-01T00:00:02Z', 'Ended deferPhase', 'Completed deferPhase '),
			event('2025-01-01T00:00:03Z', 'Started deferPhase', 'Executing deferPhase '),
		],
		'ns',
		'as',
		undefined,
	);
	expect(facts.deferStarted.get('')).toBe('2025-01-01T00:00:03Z');
	expect(facts.deferEnded.has('')).toBe(false);
});

test('failure warnings: the phase name and the error after the %#v dump; deferPhase failures by action', () => {
	const facts = readKanisterEvents(
		[
			event(
				'2025-01-01T00:00:04Z',
				'ActionSetFailed Action: restore',
				'Failed to execute phase: v1alpha1.Phase{Name:"Restore", State:"pending", Output:map[string]interface {}(nil), Progress:v1alpha1.PhaseProgress{ProgressPercent:"", ' +
				'LastTransitionTime:(*v1.Time)(nil)}}: null: exit code 1',
				{type: 'Warning'},
			),
			event('2025-01-01T00:00:08Z', 'ActionSetFailed Action: restore', 'Failed to execute defer phase: scale failed', {type: 'Warning'}),
			event('2025-01-01T00:00:09Z', 'ActionSetFailed Action: restore', 'Failed to render output artifacts: x', {type: 'Warning'}),
		],
		'ns',
		'as',
		undefined,
	);
	expect(facts.phaseFailed.get('restore/Restore')).toEqual({time: '2025-01-01T00:00:04Z', error: 'null: exit code 1'});
	expect(facts.deferFailed.get('restore')).toEqual({time: '2025-01-01T00:00:08Z', error: 'scale failed'});
	expect(facts.phaseFailed.size).toBe(1);
});

test('events of other objects, other namespaces, or from before this ActionSet was created are ignored', () => {
	const facts = readKanisterEvents(
		[
			event('2025-01-01T00:00:02Z', 'Started Phase', 'Executing phase a', {involvedKind: 'Blueprint'}),
			event('2025-01-01T00:00:02Z', 'Started Phase', 'Executing phase b', {involvedName: 'other'}),
			event('2025-01-01T00:00:02Z', 'Started Phase', 'Executing phase c', {namespace: 'elsewhere'}),
			event('2024-12-31T23:59:59Z', 'Started Phase', 'Executing phase d'),
			event('2025-01-01T00:00:02Z', 'Started Phase', 'Executing phase e'),
		],
		'ns',
		'as',
		'2025-01-01T00:00:00Z',
	);
	expect([...facts.phaseStarted.keys()]).toEqual(['e']);
});
