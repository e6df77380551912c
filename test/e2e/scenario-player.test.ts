/**
 * The scenario player against the real API server: every scenario plays to the end, the server accepts every
 * object, and what it stores equals what the demo's simulated cluster produces (spec, status, generation,
 * events), so the demo and the e2e suite show the same thing.
 */
import {randomBytes} from 'node:crypto';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import {scenarios} from '../../source/scenarios/catalog.js';
import {actionSetProblems, eventProblems, instanceProblems} from '../scenarios/invariants.js';
import {play} from '../scenarios/play.js';
import {startCluster, type Cluster} from './harness/cluster.js';
import {playScenario, readObjects} from './harness/scenario-player.js';

let cluster: Cluster;

beforeAll(async () => {
	cluster = await startCluster();
});

afterAll(async () => {
	await cluster?.stop();
});

/** What must be equal between the simulated and the real server: content, not server-assigned identity or times. */
function comparable(o: KubeObject, namespace: string): unknown {
	const {metadata, ...rest} = o;
	const text = JSON.stringify({...rest, generation: metadata?.['generation'] ?? null})
		.replaceAll(/\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d/g, '<path-time>')
		.replaceAll(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/g, '<time>')
		.replaceAll(namespace, '<ns>');
	return JSON.parse(text);
}

function eventLine(e: KubeObject, namespace: string): string {
	const involved = e['involvedObject'] as {kind: string; name: string};
	return `${involved.kind}/${involved.name} ${String(e['type'])} ${String(e['reason'])}: ${String(e['message'])}`.replaceAll(namespace, '<ns>');
}

describe.each(scenarios.map(s => [s.name, s] as const))('scenario %s on a real kube-apiserver', (_name, scenario) => {
	it('plays to the end and leaves exactly what the simulated cluster leaves', async () => {
		const namespace = `play-${scenario.name}-${randomBytes(3).toString('hex')}`;
		const played = await playScenario(scenario, {kubeconfig: cluster.adminKubeconfig, namespace, speed: 20});
		const server = await readObjects(cluster.adminKubeconfig, namespace);
		const simulated = play(scenario, {namespace: 'scenario-test', speed: 20});

		// Same objects with the same content.
		const kinds = ['OperatorVersion', 'Instance', 'Blueprint', 'ActionSet'] as const;
		const serverKeys = [...server.keys()].filter(k => !k.startsWith('Event/')).sort();
		expect(serverKeys).toEqual(kinds.flatMap(k => simulated.cluster.list(k).map(o => `${k}/${o.metadata?.name ?? ''}`)).sort());
		for (const kind of kinds) {
			for (const expected of simulated.cluster.list(kind)) {
				const key = `${kind}/${expected.metadata?.name ?? ''}`;
				expect(comparable(server.get(key)!, namespace), key).toEqual(comparable(expected, 'scenario-test'));
				expect(played.objects.get(key)?.metadata?.resourceVersion, `${key}: the player saw the last write`).toBe(server.get(key)?.metadata?.resourceVersion);
			}
		}

		// The server's objects pass the same invariants.
		const problems: string[] = [];
		for (const [key, o] of server) {
			if (o.kind === 'Instance') {
				problems.push(...instanceProblems(o, server.get(`OperatorVersion/${(o['spec'] as any).operatorVersion.name as string}`), true).map(p => `${key}: ${p}`));
			} else if (o.kind === 'ActionSet') {
				problems.push(...actionSetProblems(o, server.get(`Blueprint/${(o['spec'] as any).actions[0].blueprint as string}`)).map(p => `${key}: ${p}`));
			} else if (key.startsWith('Event/')) {
				problems.push(...eventProblems(o).map(p => `${key}: ${p}`));
			}
		}

		expect(problems).toEqual([]);

		// Same events; the involved object's uid is the server's.
		const serverEvents = [...server.entries()].filter(([k]) => k.startsWith('Event/')).map(([, e]) => e);
		const simulatedEvents = simulated.cluster.list('Event');
		expect(serverEvents.map(e => eventLine(e, namespace)).sort()).toEqual(simulatedEvents.map(e => eventLine(e, 'scenario-test')).sort());
		for (const e of serverEvents) {
			const involved = e['involvedObject'] as {kind: string; name: string; uid?: string};
			expect(involved.uid, eventLine(e, namespace)).toBe(server.get(`${involved.kind}/${involved.name}`)?.metadata?.uid);
		}

		expect(played.events).toHaveLength(serverEvents.length);
	});
});
