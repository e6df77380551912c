/**
 * What one watch event costs planwatch before any frame: `node test/bench/ingest-cost.mjs`. The path a cluster's
 * event takes, in process and without the network: the watch stream's line splitter, JSON.parse, compactRaw (as
 * the cluster source does it), the store (adapt, stamp, change log) and the ETA history's per-event look at the
 * store. 1000 ActionSets shaped as the real kube-apiserver sends them (with managedFields), then four kinds of
 * event: a status update of a running ActionSet, a new transition time on a finished one (the bench's off-screen
 * update), an event that only moves the resourceVersion (what a relist brings), and a whole relist of the 1000. CPU time per event (process.cpuUsage), median of several rounds.
 * Then one KUDO Instance with a 500-step plan whose running step moves on (each event changes two steps), through
 * the same path: what the store's adaptation of a big plan costs per update.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {loadYaml} from '@kubernetes/client-node';
import type {KubeObject} from '../../source/core/kube-object.js';
import {bigPlanInstance, bigPlanOperatorVersion} from '../helpers/big-plan.js';
import {startHistory} from '../../source/history/history-session.js';
import {LineSplitter} from '../../source/kube/bounded-read.js';
import {compactRaw, StringTable} from '../../source/model/compact-raw.js';
import {Store} from '../../source/state/store.js';
import {SystemClock} from '../../source/core/clock.js';
import {allocatedBytes} from './proc-stats.js';
import {repoRoot} from './repo-root.js';

const objects = 1000;
const rounds = 11;
const eventsPerRound = 2000;

const fixture = (name: string) => loadYaml<KubeObject>(readFileSync(path.join(repoRoot, 'test', 'fixtures', 'kanister', name), 'utf8'));
const running = fixture('actionset-mysql-backup-running.yaml');
const complete = fixture('actionset-mysql-backup-complete.yaml');

let resourceVersion = 1000;

/** As the apiserver writes it: typed, with a uid, a resourceVersion and the managedFields of a create and a status update. */
function served(object: KubeObject, name: string, percent?: number): KubeObject {
	const copy = structuredClone(object) as KubeObject & {status?: {progress?: Record<string, unknown>}};
	if (percent !== undefined && copy.status?.progress) {
		copy.status.progress['percentCompleted'] = String(percent);
	}

	const at = '2026-11-30T11:00:00Z';
	return {
		...copy,
		apiVersion: 'cr.kanister.io/v1alpha1',
		kind: 'ActionSet',
		metadata: {
			...copy.metadata,
			name,
			namespace: 'bench',
			uid: `00000000-0000-4000-8000-${String(name.length * 7919).padStart(12, '0')}`,
			resourceVersion: String(resourceVersion++),
			generation: 1,
			creationTimestamp: at,
			managedFields: [
				{manager: 'kanctl', operation: 'Update', apiVersion: 'cr.kanister.io/v1alpha1', time: at, fieldsType: 'FieldsV1', fieldsV1: {'f:spec': {'.': {}, 'f:actions': {}}}},
				{
					manager: 'controller',
					operation: 'Update',
					apiVersion: 'cr.kanister.io/v1alpha1',
					time: at,
					fieldsType: 'FieldsV1',
					subresource: 'status',
					fieldsV1: {'f:status': {'.': {}, 'f:actions': {}, 'f:progress': {'.': {}, 'f:percentCompleted': {}, 'f:lastTransitionTime': {}, 'f:runningPhase': {}}, 'f:state': {}}},
				},
			],
		},
	};
}

const line = (type: string, object: KubeObject) => Buffer.from(`${JSON.stringify({type, object})}\n`);

/** One store fed as the cluster source feeds it. */
function pipeline() {
	const store = new Store(new SystemClock());
	const history = startHistory(store, {path: '', load: () => [], append() {}});
	const lines = new LineSplitter(16 * 1024 * 1024, 'a watch event');
	const strings = new StringTable();
	const deliver = (chunk: Buffer) => {
		for (const text of lines.push(chunk)) {
			const {type, object} = JSON.parse(text) as {type: string; object: KubeObject};
			const compacted = compactRaw(object, strings);
			store.apply(type === 'DELETED' ? {type: 'delete', resource: 'ActionSet', object: compacted} : {type: 'upsert', resource: 'ActionSet', object: compacted});
			history.flush();
		}
	};

	const names = Array.from({length: objects}, (_, i) => (i < 20 ? `a-probe-${String(i).padStart(2, '0')}` : `b-${String(i).padStart(5, '0')}`));
	const listed = names.map((name, i) => served(i < 20 ? running : complete, name, i < 20 ? 0 : undefined));
	store.apply({type: 'replace', resource: 'ActionSet', objects: listed.map(o => compactRaw(structuredClone(o), strings))});
	history.flush();
	return {store, deliver, names, listed};
}

/** Bytes V8 allocated in the last cpuMicros run (what the garbage collector will have to deal with). */
let allocated = 0;

function cpuMicros(run: () => void): number {
	const bytes = allocatedBytes();
	const start = process.cpuUsage();
	run();
	const used = process.cpuUsage(start);
	allocated = allocatedBytes() - bytes;
	return used.user + used.system;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const spread = (values: number[]) => `${median(values).toFixed(1)} [${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)}]`;

const {deliver, names, listed} = pipeline();
const updates: number[] = [];
const finished: number[] = [];
const unchanged: number[] = [];
const relists: number[] = [];
/** KiB allocated per event, per kind, per round. */
const kib = {updates: [] as number[], finished: [] as number[], unchanged: [] as number[], relists: [] as number[], big: [] as number[]};
let percent = 0;
for (let round = 0; round < rounds; round++) {
	// Lines made before timing: the server's work, not planwatch's.
	const updateLines = Array.from({length: eventsPerRound}, (_, i) => line('MODIFIED', served(running, names[i % 20]!, (percent++ % 99) + 1)));
	// One each: a second update of the same object within the round would make the unchanged lines below changes.
	const finishedLines = Array.from({length: objects - 20}, (_, i) => {
		const o = served(complete, names[20 + i]!) as KubeObject & {status: {progress: Record<string, unknown>}};
		o.status.progress['lastTransitionTime'] = new Date(Date.UTC(2026, 10, 30, 11, 0, i % 60, round)).toISOString();
		return line('MODIFIED', o);
	});
	// The finished ones again as they are now in the store, with only a new resourceVersion.
	const sameLines = finishedLines.map(bytes => {
		const {object} = JSON.parse(bytes.toString('utf8')) as {object: KubeObject};
		object.metadata = {...object.metadata, resourceVersion: String(resourceVersion++)};
		return line('MODIFIED', object);
	});
	updates.push(cpuMicros(() => updateLines.forEach(deliver)) / eventsPerRound);
	kib.updates.push(allocated / 1024 / eventsPerRound);
	finished.push(cpuMicros(() => finishedLines.forEach(deliver)) / finishedLines.length);
	kib.finished.push(allocated / 1024 / finishedLines.length);
	unchanged.push(cpuMicros(() => sameLines.forEach(deliver)) / sameLines.length);
	kib.unchanged.push(allocated / 1024 / sameLines.length);
	const relist = {pipeline: pipeline()};
	const again = listed.map(o => compactRaw(structuredClone(o), new StringTable()));
	relists.push(cpuMicros(() => relist.pipeline.store.apply({type: 'replace', resource: 'ActionSet', objects: again})) / 1000);
	kib.relists.push(allocated / 1024 / 1000);
}

/** A KUDO OperatorVersion with one serial plan of `steps` steps, and its Instance at step `running`. */
function bigInstance(steps: number, running: number): {operatorVersion: KubeObject; instance: KubeObject} {
	const shape = {steps, namespace: 'bench'};
	return {
		operatorVersion: bigPlanOperatorVersion({...shape, metadata: {uid: 'ov-uid', resourceVersion: String(resourceVersion++)}}),
		instance: bigPlanInstance(running, {
			...shape,
			metadata: {uid: 'instance-uid', resourceVersion: String(resourceVersion++)},
			planUid: 'deploy-uid',
			lastUpdatedTimestamp: '2026-11-30T11:00:00Z',
		}),
	};
}

const bigSteps = 500;
const bigUpdates: number[] = [];
{
	const store = new Store(new SystemClock());
	const history = startHistory(store, {path: '', load: () => [], append() {}});
	const strings = new StringTable();
	const lines = new LineSplitter(16 * 1024 * 1024, 'a watch event');
	const first = bigInstance(bigSteps, 0);
	store.apply({type: 'upsert', resource: 'OperatorVersion', object: compactRaw(first.operatorVersion, strings)});
	store.apply({type: 'upsert', resource: 'Instance', object: compactRaw(first.instance, strings)});
	history.flush();
	let step = 0;
	for (let round = 0; round < rounds; round++) {
		const eventLines = Array.from({length: 200}, () => line('MODIFIED', bigInstance(bigSteps, ++step % bigSteps).instance));
		bigUpdates.push(cpuMicros(() => {
			for (const bytes of eventLines) {
				for (const text of lines.push(bytes)) {
					const {object} = JSON.parse(text) as {object: KubeObject};
					store.apply({type: 'upsert', resource: 'Instance', object: compactRaw(object, strings)});
					history.flush();
				}
			}
		}) / eventLines.length);
		kib.big.push(allocated / 1024 / eventLines.length);
	}
}

process.stdout.write(
	`ingest cost per event, ${objects} ActionSets (line split, JSON.parse, compactRaw, store, ETA history), CPU µs and KiB allocated, median [min–max] of ${rounds} rounds:\n` +
		'| event | CPU µs | KiB allocated |\n|---|---:|---:|\n' +
		`| status update of a running ActionSet | ${spread(updates)} | ${spread(kib.updates)} |\n` +
		`| new transition time on a finished ActionSet | ${spread(finished)} | ${spread(kib.finished)} |\n` +
		`| only the resourceVersion moved | ${spread(unchanged)} | ${spread(kib.unchanged)} |\n` +
		`| relist of ${objects} unchanged objects, per object | ${spread(relists)} | ${spread(kib.relists)} |\n` +
		`| the running step of a ${bigSteps}-step KUDO plan moves on (one Instance) | ${spread(bigUpdates)} | ${spread(kib.big)} |\n`,
);
