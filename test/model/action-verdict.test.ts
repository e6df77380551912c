import {describe, expect, it} from 'vitest';
import {actionVerdict, type ActionVerdictInput} from '../../source/model/adapt-kanister-action-set.js';
import type {NodeState, PlanNode} from '../../source/model/plan-tree.js';
import {actionVerdictInput} from '../helpers/action-verdict-input.js';

const phase = (name: string, status: string, state: NodeState, message?: string): PlanNode => ({id: name, kind: 'phase', name, status, state, ...(message ? {message} : {}), children: []});
const defer = (status: string, state: NodeState, message?: string): PlanNode => ({id: 'd', kind: 'deferPhase', name: 'cleanup', status, state, ...(message ? {message} : {}), children: []});

describe('actionVerdict: the Kanister action verdict', () => {
	it.each<[string, Partial<ActionVerdictInput>, [NodeState, string, string]]>([
		['no status yet', {context: {hasStatus: false, objectState: '', failedWithoutNode: false, error: ''}}, ['pending', 'pending', 'backup waiting for the controller to start it']],
		['a phase running, with the percent', {core: [phase('dump', 'running', 'running')], percent: 40}, ['running', 'running', 'backup running phase dump (40%)']],
		[
			'all phases complete, deferPhase running',
			{core: [phase('dump', 'complete', 'succeeded')], deferNode: defer('pending', 'pending'), deferRunning: true},
			['running', 'running', 'backup: all phases complete; deferPhase cleanup running'],
		],
		[
			'a phase failed, cleanup ran',
			{core: [phase('dump', 'failed', 'failed', 'disk full')], deferNode: defer('complete', 'succeeded')},
			['failed', 'failed', 'backup failed in phase dump: disk full; deferPhase cleanup completed (cleanup ran)'],
		],
		[
			'a phase failed, the deferPhase will not run',
			{core: [phase('dump', 'failed', 'failed')], deferNode: defer('pending', 'pending'), never: true},
			['failed', 'failed', 'backup failed in phase dump; deferPhase cleanup will not run'],
		],
		[
			'phases complete, deferPhase failed',
			{core: [phase('dump', 'complete', 'succeeded')], deferNode: defer('failed', 'failed', 'pod gone')},
			['failed', 'failed', 'backup completed but deferPhase cleanup failed: pod gone'],
		],
		[
			'everything complete',
			{core: [phase('dump', 'complete', 'succeeded')], deferNode: defer('complete', 'succeeded'), context: {hasStatus: true, objectState: 'complete', failedWithoutNode: false, error: ''}},
			['succeeded', 'complete', 'backup completed; deferPhase cleanup completed'],
		],
		[
			'object complete but a phase pending: inconsistent',
			{core: [phase('dump', 'pending', 'pending')], context: {hasStatus: true, objectState: 'complete', failedWithoutNode: false, error: ''}},
			['unknown', 'inconsistent', 'backup: inconsistent status, ActionSet complete but phase dump is pending'],
		],
		['between two phases', {core: [phase('a', 'complete', 'succeeded'), phase('b', 'pending', 'pending')]}, ['running', 'running', 'backup running, next phase b']],
	])('%s', (_, over, [state, status, summary]) => {
		expect(actionVerdict(actionVerdictInput(over))).toEqual({state, status, summary});
	});
});
