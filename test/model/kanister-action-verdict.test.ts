import {describe, expect, it} from 'vitest';
import {actionVerdict, type ActionVerdictInput} from '../../source/model/adapt-kanister-action-set.js';
import type {NodeState, PlanNode} from '../../source/model/plan-tree.js';
import {actionVerdictInput} from '../helpers/action-verdict-input.js';
import {kanisterState} from '../../source/model/status.js';

/*
 * Every rule of the Kanister action verdict, one row each, in the order actionVerdict applies them (first match
 * wins): a row exists for each condition so that dropping or weakening it changes a row's answer.
 */

const phase = (name: string, status: string, message?: string): PlanNode => ({id: name, kind: 'phase', name, status, state: kanisterState(status), ...(message ? {message} : {}), children: []});
const defer = (status: string, message?: string): PlanNode => ({id: 'd', kind: 'deferPhase', name: 'cleanup', status, state: kanisterState(status), ...(message ? {message} : {}), children: []});
type Ctx = ActionVerdictInput['context'];
const object = (objectState: string, over: Partial<Ctx> = {}): Ctx => ({hasStatus: true, objectState, failedWithoutNode: false, error: '', ...over});

type Row = [string, Partial<ActionVerdictInput>, [NodeState, string, string]];

describe('actionVerdict, rule by rule', () => {
	it.each<Row>([
		// No status: pending, whatever the phases (from the Blueprint) say.
		[
			'no status, a phase named running: still waiting for the controller',
			{core: [phase('dump', 'running')], context: {...object(''), hasStatus: false}},
			['pending', 'pending', 'backup waiting for the controller to start it'],
		],

		// complete with a core phase pending or running: inconsistent, naming the first such phase.
		[
			'complete ActionSet, a phase running',
			{core: [phase('a', 'complete'), phase('b', 'running')], context: object('complete')},
			['unknown', 'inconsistent', 'backup: inconsistent status, ActionSet complete but phase b is running'],
		],
		[
			'complete ActionSet, a phase pending',
			{core: [phase('a', 'complete'), phase('b', 'pending')], context: object('complete')},
			['unknown', 'inconsistent', 'backup: inconsistent status, ActionSet complete but phase b is pending'],
		],
		[
			'complete ActionSet, phases only named from the Blueprint: nothing inconsistent was written',
			{core: [phase('a', 'pending')], phasesFromStatus: false, context: object('complete')},
			['pending', 'pending', 'backup pending'],
		],
		['running ActionSet, a phase pending: not inconsistent', {core: [phase('a', 'pending')], context: object('running')}, ['running', 'running', 'backup starting']],

		// A core phase running.
		['a phase running, no percent', {core: [phase('a', 'complete'), phase('b', 'running')]}, ['running', 'running', 'backup running phase b']],
		['a phase running, the percent rounded', {core: [phase('b', 'running')], percent: 40.6}, ['running', 'running', 'backup running phase b (41%)']],
		[
			'a phase running while the deferPhase is said to run: the phase',
			{core: [phase('b', 'running')], deferNode: defer('pending'), deferRunning: true},
			['running', 'running', 'backup running phase b'],
		],

		// The deferPhase running (its state still says pending).
		[
			'deferPhase running after a failure',
			{core: [phase('dump', 'failed', 'disk full')], deferNode: defer('pending'), deferRunning: true, context: object('failed')},
			['running', 'running', 'backup: deferPhase cleanup running after failure in phase dump'],
		],
		[
			'deferPhase running after every phase completed',
			{core: [phase('dump', 'complete')], deferNode: defer('pending'), deferRunning: true, context: object('complete')},
			['running', 'running', 'backup: all phases complete; deferPhase cleanup running'],
		],

		// A core phase failed: what became of the deferPhase.
		[
			'failed, cleanup ran',
			{core: [phase('dump', 'failed', 'disk full')], deferNode: defer('complete'), context: object('failed')},
			['failed', 'failed', 'backup failed in phase dump: disk full; deferPhase cleanup completed (cleanup ran)'],
		],
		[
			'failed, cleanup ran, no message',
			{core: [phase('dump', 'failed')], deferNode: defer('complete'), context: object('failed')},
			['failed', 'failed', 'backup failed in phase dump; deferPhase cleanup completed (cleanup ran)'],
		],
		[
			'failed, the deferPhase failed too',
			{core: [phase('dump', 'failed', 'disk full')], deferNode: defer('failed', 'pod gone'), context: object('failed')},
			['failed', 'failed', 'backup failed in phase dump; deferPhase cleanup failed too, see events'],
		],
		[
			'failed, the deferPhase will never run',
			{core: [phase('dump', 'failed', 'disk full')], deferNode: defer('pending'), never: true, context: object('failed')},
			['failed', 'failed', 'backup failed in phase dump: disk full; deferPhase cleanup will not run'],
		],
		[
			'failed, the deferPhase has not started',
			{core: [phase('dump', 'failed', 'disk full')], deferNode: defer('pending'), context: object('failed')},
			['failed', 'failed', 'backup failed in phase dump: disk full; deferPhase cleanup has not started'],
		],
		[
			'failed, the deferPhase has not started, no message',
			{core: [phase('dump', 'failed')], deferNode: defer('pending'), context: object('failed')},
			['failed', 'failed', 'backup failed in phase dump; deferPhase cleanup has not started'],
		],
		[
			'failed, no deferPhase, the message',
			{core: [phase('a', 'complete'), phase('dump', 'failed', 'disk full'), phase('c', 'pending')], context: object('failed')},
			['failed', 'failed', 'backup failed in phase dump: disk full'],
		],
		['failed, no deferPhase, no message', {core: [phase('dump', 'failed')], context: object('failed')}, ['failed', 'failed', 'backup failed in phase dump']],
		['a failed phase wins over the object still saying running', {core: [phase('dump', 'failed')], context: object('running')}, ['failed', 'failed', 'backup failed in phase dump']],

		// Only the deferPhase failed.
		[
			'every phase complete, the deferPhase failed',
			{core: [phase('dump', 'complete')], deferNode: defer('failed', 'pod gone'), context: object('failed')},
			['failed', 'failed', 'backup completed but deferPhase cleanup failed: pod gone'],
		],
		[
			'every phase complete, the deferPhase failed, no message',
			{core: [phase('dump', 'complete')], deferNode: defer('failed'), context: object('failed')},
			['failed', 'failed', 'backup completed but deferPhase cleanup failed'],
		],
		[
			'a phase not complete, the deferPhase failed',
			{core: [phase('dump', 'pending')], deferNode: defer('failed', 'pod gone'), context: object('failed')},
			['failed', 'failed', 'backup: deferPhase cleanup failed: pod gone'],
		],

		// The object failed and no node did (launch, template or artifact failures).
		[
			'the object failed with no failed node: its error, without the null prefix',
			{core: [phase('dump', 'pending')], context: object('failed', {failedWithoutNode: true, error: 'null: template error'})},
			['failed', 'failed', 'backup failed: template error'],
		],
		['the object failed with no failed node and no error', {core: [phase('dump', 'complete')], context: object('failed', {failedWithoutNode: true})}, ['failed', 'failed', 'backup failed']],
		['the object failed, a node failed elsewhere: this action is not blamed', {core: [phase('dump', 'complete')], context: object('failed')}, ['succeeded', 'complete', 'backup completed']],
		[
			'a running object with failedWithoutNode set: not failed',
			{core: [phase('dump', 'pending')], context: object('running', {failedWithoutNode: true, error: 'x'})},
			['running', 'running', 'backup starting'],
		],

		// Done.
		[
			'every phase and the deferPhase complete',
			{core: [phase('a', 'complete'), phase('b', 'complete')], deferNode: defer('complete'), context: object('complete')},
			['succeeded', 'complete', 'backup completed; deferPhase cleanup completed'],
		],
		['every phase complete, no deferPhase', {core: [phase('a', 'complete')], context: object('complete')}, ['succeeded', 'complete', 'backup completed']],
		['no phases known, the object complete per its status', {core: [], context: object('complete')}, ['succeeded', 'complete', 'backup completed']],
		['no phases known, the object complete, but the action not from the status', {core: [], phasesFromStatus: false, context: object('complete')}, ['pending', 'pending', 'backup pending']],
		['no phases known, the object running', {core: [], context: object('running')}, ['running', 'running', 'backup starting']],

		// Another action set the ActionSet complete: this deferPhase is about to start.
		[
			'phases complete, deferPhase pending, the object complete',
			{core: [phase('a', 'complete')], deferNode: defer('pending'), context: object('complete')},
			['pending', 'pending', 'backup: all phases complete; deferPhase cleanup has not started'],
		],
		['... unless it will never run', {core: [phase('a', 'complete')], deferNode: defer('pending'), never: true, context: object('complete')}, ['pending', 'pending', 'backup pending']],
		[
			'phases complete, deferPhase pending, the object running: between the phases and the deferPhase',
			{core: [phase('a', 'complete')], deferNode: defer('pending'), context: object('running')},
			['running', 'running', 'backup: all phases complete'],
		],

		// A state word Kanister does not have: named, never shown as running or pending.
		[
			'a phase in an unknown state, between complete ones of a running ActionSet',
			{core: [phase('a', 'complete'), phase('b', 'exploded'), phase('c', 'pending')], context: object('running')},
			['unknown', 'exploded', 'backup: b has unknown state exploded'],
		],
		['a phase with an empty state', {core: [phase('a', '')], context: object('running')}, ['unknown', '', 'backup: a has unknown state (empty)']],
		[
			'a deferPhase in an unknown state',
			{core: [phase('a', 'complete')], deferNode: defer('skipped'), context: object('running')},
			['unknown', 'skipped', 'backup: cleanup has unknown state skipped'],
		],
		[
			'an unknown phase state is named before an unknown deferPhase state',
			{core: [phase('a', 'weird')], deferNode: defer('odd'), context: object('running')},
			['unknown', 'weird', 'backup: a has unknown state weird'],
		],

		// A running ActionSet between phases, or before its first.
		['running, between two phases: the next one named', {core: [phase('a', 'complete'), phase('b', 'pending'), phase('c', 'pending')]}, ['running', 'running', 'backup running, next phase b']],
		['running, between two phases, with the percent', {core: [phase('a', 'complete'), phase('b', 'pending')], percent: 49.5}, ['running', 'running', 'backup running, next phase b (50%)']],
		['running, every phase complete, no deferPhase: all complete', {core: [phase('a', 'complete')], context: object('running'), percent: 100}, ['succeeded', 'complete', 'backup completed']],
		[
			'running, no phase complete yet: starting, not pending',
			{core: [phase('a', 'pending'), phase('b', 'pending')], context: object('running'), percent: 0},
			['running', 'running', 'backup starting'],
		],

		// Anything else: pending.
		['a pending ActionSet', {core: [phase('a', 'pending')], context: object('pending')}, ['pending', 'pending', 'backup pending']],
		['a pending ActionSet with a phase complete: pending', {core: [phase('a', 'complete'), phase('b', 'pending')], context: object('pending')}, ['pending', 'pending', 'backup pending']],
	])('%s', (_, over, [state, status, summary]) => {
		expect(actionVerdict(actionVerdictInput(over))).toEqual({state, status, summary});
	});

	it('uses the action name and deferPhase label it is given', () => {
		expect(actionVerdict(actionVerdictInput({name: 'restore', deferLabel: 'deferPhase', core: [phase('x', 'complete')], deferNode: defer('failed'), context: object('failed')})).summary).toBe(
			'restore completed but deferPhase failed',
		);
	});
});
