import {describe, expect, it} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import {Store} from '../../source/state/store.js';
import {workloadLimits, Workloads} from '../../source/state/workloads.js';
import {FakeClock} from '../helpers/fake-clock.js';

function pod(name: string, namespace = 'ns', labels: Record<string, string> = {createdBy: 'kanister'}): KubeObject {
	return {apiVersion: 'v1', kind: 'Pod', metadata: {name, namespace, uid: name, labels, creationTimestamp: '2026-01-01T00:00:00Z'}, spec: {containers: [{name: 'c'}]}, status: {phase: 'Running'}};
}

describe('Workloads', () => {
	it('keeps a Kanister pod after it is deleted (its function ended), bounded; other pods just go', () => {
		const w = new Workloads(new FakeClock());
		w.apply({type: 'upsert', resource: 'Pod', object: pod('kanister-job-a')});
		w.apply({type: 'upsert', resource: 'Pod', object: pod('web-0', 'ns', {app: 'web'})});
		w.apply({type: 'delete', resource: 'Pod', object: pod('kanister-job-a')});
		w.apply({type: 'delete', resource: 'Pod', object: pod('web-0', 'ns', {app: 'web'})});
		const view = w.view(undefined, ['ns']);
		expect(view.pods).toEqual([]);
		expect(view.gonePods.map(g => g.pod.metadata?.name)).toEqual(['kanister-job-a']);
		for (let i = 0; i < workloadLimits.gonePods + 50; i++) {
			w.apply({type: 'upsert', resource: 'Pod', object: pod(`kanister-job-${i}`)});
			w.apply({type: 'delete', resource: 'Pod', object: pod(`kanister-job-${i}`)});
		}

		expect(w.view(undefined, ['ns']).gonePods).toHaveLength(workloadLimits.gonePods);
	});

	it('log tails per container, a reset starts over, and the number of logs kept is capped', () => {
		const w = new Workloads(new FakeClock());
		const log = {type: 'log', namespace: 'ns', pod: 'p', container: 'c', previous: false} as const;
		w.apply({...log, text: 'one\n'});
		w.apply({...log, text: 'two\n'});
		expect(w.view(undefined, ['ns']).logs.get('ns/p/c')?.lines).toEqual(['one', 'two']);
		w.apply({...log, text: 'three\n', reset: true});
		expect(w.view(undefined, ['ns']).logs.get('ns/p/c')?.lines).toEqual(['three']);
		for (let i = 0; i < workloadLimits.logs + 10; i++) {
			w.apply({...log, pod: `p${i}`, text: 'x\n'});
		}

		expect(w.view(undefined, ['ns']).logs.size).toBe(workloadLimits.logs);
	});

	it('warning Events about pods are capped per namespace, the newest kept; a note not read in time is the one note', () => {
		const w = new Workloads(new FakeClock());
		const event = (i: number, namespace = 'ns'): KubeObject => ({
			apiVersion: 'v1', kind: 'Event', metadata: {name: `e${i}`, namespace}, involvedObject: {kind: 'Pod', name: 'p'}, type: 'Warning', reason: 'BackOff', message: `m${i}`,
		});
		for (let i = 0; i < workloadLimits.eventsPerNamespace + 30; i++) {
			w.apply({type: 'upsert', resource: 'Event', object: event(i)});
		}

		w.apply({type: 'upsert', resource: 'Event', object: event(0, 'other')});
		const events = w.view(undefined, ['ns']).events;
		expect(events).toHaveLength(workloadLimits.eventsPerNamespace);
		expect(events.at(-1)?.message).toBe(`m${workloadLimits.eventsPerNamespace + 29}`);
		expect(w.view(undefined, ['other']).events).toHaveLength(1);
		const version = w.version;
		w.noteUnread('pods and logs not all read within 30s (--request-timeout): drawn without them');
		w.noteUnread('a second note');
		expect(w.note).toEqual({text: 'pods and logs not all read within 30s (--request-timeout): drawn without them', missing: false});
		expect(w.view(undefined, ['ns']).note).toBe(w.note?.text);
		expect(w.version).toBe(version + 1);
	});

	it('a 403 on pods or pods/log is one note; a warning Event about a pod is its, and not the store\'s', () => {
		const store = new Store(new FakeClock());
		store.apply({type: 'missing', resource: 'Pod', message: 'forbidden: user viewer cannot list pods'});
		store.apply({type: 'log', namespace: 'ns', pod: 'p', container: 'c', previous: false, text: '', error: 'forbidden', forbidden: true});
		expect(store.workloads.view(undefined, ['ns']).note).toBe('pods cannot be read: forbidden: user viewer cannot list pods');
		expect(store.workloads.note?.missing).toBe(true);
		expect(store.getSnapshot().missing).toEqual([{resource: 'Pod', message: 'forbidden: user viewer cannot list pods'}]);
		// What KUDO applied refused as well (a KUDO-only user's Deployments, StatefulSets, Jobs): still the one note.
		for (const resource of ['Deployment', 'StatefulSet', 'Job'] as const) {
			store.apply({type: 'missing', resource, message: `forbidden: user viewer cannot list ${resource}`});
		}

		store.apply({type: 'missing', resource: 'Event', message: 'forbidden: events'});
		expect(store.getSnapshot().missing?.map(m => m.resource)).toEqual(['Pod', 'Event']);
		expect(store.workloads.view(undefined, ['ns']).note).toBe('pods cannot be read: forbidden: user viewer cannot list pods');
		const event: KubeObject = {
			apiVersion: 'v1',
			kind: 'Event',
			metadata: {name: 'e1', namespace: 'ns'},
			involvedObject: {kind: 'Pod', name: 'p'},
			type: 'Warning',
			reason: 'BackOff',
			message: 'Back-off restarting failed container',
		};
		store.apply({type: 'upsert', resource: 'Event', object: event});
		expect(store.workloads.view(undefined, ['ns']).events).toEqual([{name: 'e1', pod: 'p', reason: 'BackOff', message: 'Back-off restarting failed container'}]);
		expect(store.getSnapshot().events.size).toBe(0);
	});

	it('interest and wanted logs notify only when they change', () => {
		const w = new Workloads(new FakeClock());
		let calls = 0;
		w.subscribe(() => calls++);
		w.setInterest([{kind: 'Instance', namespaces: ['ns']}]);
		w.setInterest([{kind: 'Instance', namespaces: ['ns']}]);
		w.setWantedLogs([{namespace: 'ns', pod: 'p', container: 'c', previous: true}]);
		w.setWantedLogs([{namespace: 'ns', pod: 'p', container: 'c', previous: true}]);
		expect(calls).toBe(2);
	});
});
