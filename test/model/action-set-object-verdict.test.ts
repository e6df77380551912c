import {describe, expect, it} from 'vitest';
import {objectVerdict, type ObjectVerdictInput} from '../../source/model/adapt-kanister-action-set.js';

const base: ObjectVerdictInput = {hasStatus: true, initFailed: false, rawState: 'running', error: '', summaries: ['backup running phase dump'], deferRunning: false, deferPending: false};

describe('objectVerdict: an ActionSet\'s outcome, state and summary', () => {
	it.each<[string, Partial<ObjectVerdictInput>, ReturnType<typeof objectVerdict>]>([
		['no status yet, actions known: pending, their summaries', {hasStatus: false, rawState: ''}, {outcome: 'running', state: 'pending', summary: 'backup running phase dump'}],
		[
			'no status and no actions: waiting for the controller',
			{hasStatus: false, rawState: '', summaries: []},
			{outcome: 'running', state: 'pending', summary: 'waiting for the controller to start it'},
		],
		[
			'the status never initialised: failed to start, with the error',
			{initFailed: true, rawState: 'failed', error: 'blueprint "bp" not found'},
			{outcome: 'failed', state: 'failed', summary: 'failed to start: blueprint "bp" not found'},
		],
		['failed with no actions and no error', {rawState: 'failed', summaries: []}, {outcome: 'failed', state: 'failed', summary: 'failed to start: no error message'}],
		['running: running, the actions\' summaries joined', {summaries: ['a', 'b']}, {outcome: 'running', state: 'running', summary: 'a | b'}],
		['complete, nothing deferred left: succeeded', {rawState: 'complete', summaries: ['backup completed']}, {outcome: 'succeeded', state: 'succeeded', summary: 'backup completed'}],
		['complete while a deferPhase may still start: still running', {rawState: 'complete', deferPending: true}, {outcome: 'running', state: 'running', summary: 'backup running phase dump'}],
		[
			'complete with a core phase still running: inconsistent',
			{rawState: 'complete', inconsistent: 'phase dump of action backup is running'},
			{outcome: 'unknown', state: 'unknown', summary: 'inconsistent status: ActionSet complete but phase dump of action backup is running'},
		],
		['failed while its deferPhase runs: not over yet', {rawState: 'failed', deferRunning: true}, {outcome: 'running', state: 'running', summary: 'backup running phase dump'}],
		['failed: failed', {rawState: 'failed'}, {outcome: 'failed', state: 'failed', summary: 'backup running phase dump'}],
		['a state Kanister does not have: unknown', {rawState: 'exploded'}, {outcome: 'unknown', state: 'unknown', summary: 'ActionSet has unknown state exploded'}],
		['complete with no actions', {rawState: 'complete', summaries: []}, {outcome: 'succeeded', state: 'succeeded', summary: 'ActionSet complete with no actions'}],
	])('%s', (_, input, want) => {
		expect(objectVerdict({...base, ...input})).toEqual(want);
	});
});
