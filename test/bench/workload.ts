/**
 * The objects a bench run watches and the status updates it makes, on the in-process watch server.
 * Shapes come from the fixtures (a running and a finished mysql backup ActionSet, a finished zookeeper
 * Instance), cloned under generated names in one namespace.
 *
 * Probes: the first (up to) 20 objects in the list's order (ActionSets sort before Instances, `a-probe-…`
 * before `b-…`), all running, all on screen. Every update goes to a probe, round robin, and sets its
 * percentCompleted to a new value: the list's PROGRESS column (and kubectl's custom column) shows it, so each
 * update has a visible marker. The other objects are there to be listed, watched, stored and laid out.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {loadYaml} from '@kubernetes/client-node';
import type {KubeObject} from '../../source/core/kube-object.js';
import {repoRoot} from './repo-root.js';
import {actionSets, blueprints, instances, operatorVersions, type WatchServer} from '../helpers/watch-server.js';

/** Where the objects go: the watch server, or (the in-process frame bench) a store behind the same call. */
export type ObjectSink = Pick<WatchServer, 'put'>;

export const namespace = 'bench';

function loadFixtureObject(relativePath: string): KubeObject {
	return loadYaml<KubeObject>(readFileSync(path.join(repoRoot, 'test', 'fixtures', relativePath), 'utf8'));
}

export const maxProbes = 20;

const running = loadFixtureObject('kanister/actionset-mysql-backup-running.yaml');
const complete = loadFixtureObject('kanister/actionset-mysql-backup-complete.yaml');
const instance = loadFixtureObject('kudo/instance-zookeeper-deploy-complete.yaml');
const blueprint = loadFixtureObject('kanister/blueprint-mysql-defer.yaml');
const operatorVersion = loadFixtureObject('kudo/operatorversion-zookeeper.yaml');

/** What one update carries: a running probe (the object --record encodes per update). */
export function sampleUpdate(): KubeObject {
	return probeObject(probeName(0), 42);
}

export function probeName(index: number): string {
	return `a-probe-${String(index).padStart(2, '0')}`;
}

/** A copy of `object` named `name` in the bench namespace, without server-owned metadata. */
function renamed(object: KubeObject, name: string): KubeObject & {metadata: {name: string; namespace: string}} {
	const copy = structuredClone(object) as KubeObject & {metadata: Record<string, unknown>};
	const {labels} = copy.metadata as {labels?: Record<string, string>};
	return {...copy, metadata: {name, namespace, ...(labels ? {labels} : {})}};
}

type Progress = {percentCompleted?: string; lastTransitionTime?: string};
type ActionStatus = {phases?: Array<{progress?: {progressPercent?: string; lastTransitionTime?: string}}>};

/** A running ActionSet at `percent`: object progress and its running phase's progress. */
function probeObject(name: string, percent: number): KubeObject & {metadata: {name: string; namespace: string}} {
	const o = renamed(running, name);
	const status = o['status'] as {progress: Progress; actions: ActionStatus[]};
	const at = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
	status.progress = {...status.progress, percentCompleted: String(percent), lastTransitionTime: at};
	const phase = status.actions[0]?.phases?.[0];
	if (phase) {
		phase.progress = {...phase.progress, progressPercent: String(percent), lastTransitionTime: at};
	}

	return o;
}

export type Workload = {
	readonly objects: number;
	readonly probes: readonly string[];
	/**
	 * An update to a finished ActionSet in the second half of the list, far below any window: a new transition
	 * time, nothing its row shows. What most watch events of a big namespace are.
	 */
	updateOffScreen(): void;
	/** Write the next update (to the next of `only`, default every probe): returns the probe and the value its row will show. */
	update(only?: readonly string[]): {readonly probe: string; readonly value: number};
};

/**
 * Fill `server` with `count` watched objects (plus the Blueprint and OperatorVersion they refer to); with
 * `onlyActionSets` (the side-by-side with tools that show one resource), finished ActionSets take the Instances' place.
 */
export function loadWorkload(server: ObjectSink, count: number, options: {readonly onlyActionSets?: boolean} = {}): Workload {
	server.put(blueprints, renamed(blueprint, blueprint.metadata?.name ?? 'mysql-blueprint-defer'));
	server.put(operatorVersions, renamed(operatorVersion, operatorVersion.metadata?.name ?? 'zookeeper'));
	const probes = Array.from({length: Math.min(count, maxProbes)}, (_, i) => probeName(i));
	for (const name of probes) {
		server.put(actionSets, probeObject(name, 0));
	}

	for (let i = 0; i < count - probes.length; i++) {
		const name = `b-${String(i).padStart(5, '0')}`;
		// Two finished ActionSets for every finished Instance: a namespace after a few days of backups.
		if (i % 3 === 2 && !options.onlyActionSets) {
			server.put(instances, renamed(instance, name));
		} else {
			server.put(actionSets, renamed(complete, name));
		}
	}

	const values = new Map(probes.map(p => [p, 0]));
	let next = 0;
	const finished = Array.from({length: count - probes.length}, (_, i) => i).filter(i => i % 3 !== 2 || options.onlyActionSets).map(i => `b-${String(i).padStart(5, '0')}`);
	const below = finished.slice(Math.floor(finished.length / 2));
	let nextBelow = 0;
	return {
		objects: count,
		probes,
		updateOffScreen() {
			const name = below[nextBelow++ % below.length];
			if (name === undefined) {
				return;
			}

			const o = renamed(complete, name);
			const status = o['status'] as {progress: Progress};
			status.progress = {...status.progress, lastTransitionTime: new Date(Date.UTC(2026, 10, 30, 11, 0, nextBelow % 60)).toISOString().replace(/\.\d+Z$/, 'Z')};
			server.put(actionSets, o);
		},
		update(only = probes) {
			const probe = only[next++ % only.length]!;
			// 1..99, never the value on screen now: every update changes the row.
			const value = (values.get(probe)! % 99) + 1;
			values.set(probe, value);
			server.put(actionSets, probeObject(probe, value));
			return {probe, value};
		},
	};
}
