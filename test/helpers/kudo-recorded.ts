import {readFileSync} from 'node:fs';
import type {KubeObject} from '../../source/core/kube-object.js';
import {adaptEvent} from '../../source/model/adapt-event.js';
import type {PlanEvent} from '../../source/model/plan-tree.js';
import {fixturesDir} from './fixtures.js';

type Entry = {readonly at: string; readonly type: string; readonly object: KubeObject};

/** What the real KUDO v0.19.0 manager wrote in one case of test/fixtures/kudo-recorded/ (`<name>.raw.json`). */
export type KudoRecorded = {
	/** The Instance's watch events as served, in order. */
	readonly instances: readonly Entry[];
	/** Its Events, adapted as the store adapts them. */
	readonly events: readonly PlanEvent[];
	/** The Instance as readKudoEvents is told about it. */
	readonly instanceMeta: {readonly namespace: string; readonly name: string; readonly uid: string; readonly createdAt: string};
};

export function kudoRecorded(name: 'delete-while-running' | 'same-second-trigger'): KudoRecorded {
	const raw = JSON.parse(readFileSync(`${fixturesDir}kudo-recorded/${name}.raw.json`, 'utf8')) as {instance: Entry[]; events: Entry[]};
	const meta = raw.instance[0]!.object.metadata as {namespace: string; name: string; uid: string; creationTimestamp: string};
	return {
		instances: raw.instance,
		events: raw.events.map(e => adaptEvent(e.object)).filter(e => e !== undefined),
		instanceMeta: {namespace: meta.namespace, name: meta.name, uid: meta.uid, createdAt: meta.creationTimestamp},
	};
}
