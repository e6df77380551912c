/**
 * What the tree asks to be watched: the logs its diagnoses point at, except the log of a pod that is gone (the
 * Kanister controller deletes its pods when the function ends: asking for their logs again only gets 404s).
 */
import {describe, expect, test} from 'vitest';
import type {Diagnosis} from '../../source/model/diagnosis.js';
import type {PlanNode, PlanObject} from '../../source/model/plan-tree.js';
import {watchWants} from '../../source/state/watch-wants.js';

const phase: PlanNode = {id: 'a/dump', kind: 'phase', name: 'dump', status: 'failed', state: 'failed', children: []};
const action: PlanNode = {id: 'a', kind: 'action', name: 'backup', status: 'failed', state: 'failed', detail: 'namespace app-ns', children: [phase]};
const actionSet = {kind: 'ActionSet', namespace: 'kanister', name: 'backup-x', tree: [action]} as unknown as PlanObject;
const log = {namespace: 'app-ns', pod: 'kanister-job-z', container: 'container', previous: false};

describe('watchWants', () => {
	test('a diagnosis\'s log is wanted, unless its pod is gone; the namespaces stay of interest either way', () => {
		const live: Diagnosis = {resources: [], pods: [], log, logTail: ['pg_dump: error']};
		expect(watchWants(actionSet, [phase], () => live)).toEqual({interest: [{kind: 'ActionSet', namespaces: ['app-ns', 'kanister']}], logs: [log]});
		const gone: Diagnosis = {...live, logGone: true};
		expect(watchWants(actionSet, [phase], () => gone)).toEqual({interest: [{kind: 'ActionSet', namespaces: ['app-ns', 'kanister']}], logs: []});
	});
});
