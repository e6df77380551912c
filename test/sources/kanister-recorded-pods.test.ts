/**
 * The pods the REAL Kanister controller runs for KubeTask phases (test/fixtures/kanister-recorded/kubetask-*.ndjson,
 * kanisterio/kanister 534f152; see its README): what it really puts on them, read off the raw pod watch, against what
 * source/model/diagnosis.ts links a phase's pod by; and planwatch's own recording replayed — the phase linked to the
 * pod the controller created, its status and reason, the log lines planwatch read through the real apiserver (from
 * the recorder's kubelet stand-in), kept after the controller deleted the pod, and `-o json`'s pods/logTail/next.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import {kanisterCreatedBy, kanisterJobIdLabel} from '../../source/model/diagnosis.js';
import type {PlanNode, PlanObject} from '../../source/model/plan-tree.js';
import type {JsonNode, JsonObject} from '../../source/render/json.js';
import type {RecordingEntry} from '../../source/recording/recording.js';
import {loadRecording} from '../../source/sources/replay-source.js';
import {Store} from '../../source/state/store.js';
import {diagnoseIn} from '../../source/state/workloads.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {repoRoot} from '../helpers/run-bin.js';
import {replayStream} from '../helpers/replay-stream.js';

const dir = path.join(repoRoot, 'test', 'fixtures', 'kanister-recorded');
const file = (name: string): string => path.join(dir, `${name}.ndjson`);

type Watched = {at: string; type: string; object: KubeObject & {status?: {phase?: string}}};

/** The raw watch's pod events (what the apiserver sent about the pods labelled createdBy=kanister). */
function rawPods(name: string): Watched[] {
	return readFileSync(path.join(dir, `${name}.watch.ndjson`), 'utf8').split('\n').filter(Boolean).slice(1)
		.map(line => JSON.parse(line) as Watched)
		.filter(w => w.object.kind === 'Pod');
}

/** The pods in the order the controller created them. */
function podNames(name: string): string[] {
	return [...new Set(rawPods(name).filter(w => w.type === 'ADDED').map(w => w.object.metadata!.name!))];
}

/** What the script of each KubeTask (test/e2e/kanister-recorder.ts taskScripts) wrote to its log. */
const dumpLog = [
	'dumping shop-db to /backups/shop-db.sql',
	'mysqldump: [Warning] Using a password on the command line interface can be insecure.',
	'mysqldump: Got error: 2002: Can\'t connect to MySQL server on \'shop-db.kanister.svc\' (115) when trying to connect',
	'dump failed after 3 attempts',
];

function phaseOf(tree: readonly {name: string; children: readonly unknown[]}[], name: string): unknown {
	return tree.flatMap(a => a.children as Array<{name: string}>).find(p => p.name === name);
}

/** The store after the recording's entries up to `until` (exclusive), as a live planwatch saw it then. */
function storeUntil(entries: readonly RecordingEntry[], startMs: number, until: (e: RecordingEntry) => boolean): Store {
	const clock = new FakeClock(startMs);
	const store = new Store(clock);
	for (const e of entries) {
		if (until(e)) {
			break;
		}

		if (e.event.type !== 'end') {
			clock.advance(Math.max(0, e.at - clock.now()));
			store.apply(e.event);
		}
	}

	return store;
}

function diagnosed(store: Store, phase: string): ReturnType<typeof diagnoseIn> {
	const snapshot = store.getSnapshot();
	const object = snapshot.objects[0] as PlanObject;
	return diagnoseIn(snapshot, object, phaseOf(object.tree, phase) as PlanNode);
}

/** The last `-o json` snapshot of a replay. */
function finalJson(stdout: string): JsonObject {
	const snapshots = stdout.split('\n').filter(Boolean).map(line => JSON.parse(line) as {type?: string; objects?: JsonObject[]}).filter(l => l.type === 'snapshot');
	return snapshots.at(-1)!.objects![0]!;
}

describe('the pods of the real Kanister controller (KubeTask)', () => {
	it('are what source/model links a phase by: createdBy=kanister, the ActionSet\'s JobID, kanister-job-*, no owner, no annotation', () => {
		for (const [name, jobId] of [['kubetask-failed', 'rec-job-7'], ['kubetask-ok', undefined]] as const) {
			const added = rawPods(name).filter(w => w.type === 'ADDED').map(w => w.object);
			expect(added.length, name).toBe(name === 'kubetask-failed' ? 2 : 1);
			for (const pod of added) {
				const meta = pod.metadata!;
				expect(meta.labels, name).toEqual({[kanisterCreatedBy.key]: kanisterCreatedBy.value, ...(jobId ? {[kanisterJobIdLabel]: jobId} : {})});
				expect(meta.generateName).toBe('kanister-job-');
				expect(meta.namespace).toBe('kanister');
				expect(meta.ownerReferences).toBeUndefined();
				expect(meta.annotations).toBeUndefined();
				const spec = pod['spec'] as {containers: Array<{name: string}>; restartPolicy: string};
				expect(spec.containers.map(c => c.name)).toEqual(['container']);
				expect(spec.restartPolicy).toBe('Never');
			}

			// The controller deletes each pod once its function ended (grace period 0): the last word is a DELETED of an
			// object that had ended (Succeeded/Failed) and was being deleted.
			const deleted = rawPods(name).filter(w => w.type === 'DELETED').map(w => w.object);
			expect(deleted.map(p => [p.metadata!.name, Boolean(p.metadata!.deletionTimestamp)])).toEqual(podNames(name).map(n => [n, true]));
			expect(deleted.map(p => p.status?.phase)).toEqual(name === 'kubetask-failed' ? ['Succeeded', 'Failed'] : ['Succeeded']);
		}
	});

	it('a failed KubeTask phase: its own pod (not the earlier phase\'s), why it failed, its last log lines kept after the controller deleted it', async () => {
		const [preparePod, dumpPod] = podNames('kubetask-failed') as [string, string];
		const waited = await replayStream(file('kubetask-failed'), {wait: true, stepMs: 1, output: 'json'});
		expect(waited.result.exitCode).toBe(1);
		expect(waited.result.message).toMatch(/^taskFail failed in phase dumpDatabase: \{"pod":"kanister-job-\w+"\}: Failed while waiting for Pod to complete/);
		// The wait ends on the ActionSet's `failed`, within ms of the controller deleting the pod (either comes first).
		expect((phaseOf(finalJson(waited.stdout).tree, 'dumpDatabase') as JsonNode).cause).toMatch(new RegExp(`^pod ${dumpPod}( \\(gone\\))?: container container failed: exit code 1 \\(Error\\)`));
		// The whole recording, to the pod's deletion and after.
		const run = await replayStream(file('kubetask-failed'), {wait: false, stepMs: 1, output: 'json'});
		const object = finalJson(run.stdout);
		const phase = phaseOf(object.tree, 'dumpDatabase') as JsonNode;
		expect(phase.state).toBe('failed');
		expect(phase.pods).toEqual([{
			namespace: 'kanister',
			name: dumpPod,
			phase: 'Failed',
			ready: '0/1',
			restarts: 0,
			reason: 'exited',
			words: 'container container failed: exit code 1 (Error): mysqldump exited 2: cannot connect to shop-db.kanister.svc:3306',
			container: 'container',
		}]);
		expect(phase.cause).toBe(`pod ${dumpPod} (gone): container container failed: exit code 1 (Error): mysqldump exited 2: cannot connect to shop-db.kanister.svc:3306`);
		expect(phase.logTail).toEqual({pod: dumpPod, container: 'container', previous: false, lines: dumpLog});
		expect(phase.next).toBe('kanctl create actionset --action taskFail --from kubetask-failed --namespace kanister');
		// The phase before it succeeded: its output, and no diagnosis (nor the other pod).
		const prepare = phaseOf(object.tree, 'prepareDump') as JsonNode;
		expect(prepare.output).toEqual({dumpTarget: '/backups/shop-db.sql'});
		expect(prepare.pods).toBeUndefined();
		expect(JSON.stringify(phase)).not.toContain(preparePod);
		// The controller's own phase error carries the same lines: it read the log through the apiserver too.
		expect(phase.message).toContain('dump failed after 3 attempts');
	});

	it('while the phase ran: the pod running and ready, its log so far, no next command; then the deletion keeps it', async () => {
		const [, dumpPod] = podNames('kubetask-failed') as [string, string];
		const recording = await loadRecording(file('kubetask-failed'));
		const isPod = (e: RecordingEntry, phase: string): boolean =>
			e.event.type === 'upsert' && e.event.resource === 'Pod' && e.event.object.metadata?.name === dumpPod && (e.event.object['status'] as {phase?: string}).phase === phase;
		const logs = recording.entries.filter(e => e.event.type === 'log' && e.event.pod === dumpPod);
		expect(logs.length).toBeGreaterThanOrEqual(2);
		// Up to the pod's second piece of log: Running, ready, two lines.
		const during = diagnosed(storeUntil(recording.entries, recording.startMs, e => e === logs[2]), 'dumpDatabase');
		expect(during?.pods.map(p => [p.name, p.phase, p.reason, p.ready])).toEqual([[dumpPod, 'Running', 'ready', '1/1']]);
		expect(during?.logTail).toEqual(dumpLog.slice(0, 2));
		expect(during?.next).toBeUndefined();
		// Just before it failed, and at the end (the pod deleted): the same pod, now failed, its lines kept.
		const failedAt = recording.entries.findIndex(e => isPod(e, 'Failed'));
		expect(failedAt).toBeGreaterThan(0);
		const failed = diagnosed(storeUntil(recording.entries, recording.startMs, e => e === recording.entries[failedAt + 1]), 'dumpDatabase');
		expect(failed?.pods.map(p => [p.name, p.phase, p.reason])).toEqual([[dumpPod, 'Failed', 'exited']]);
		expect(failed?.logGone).toBeUndefined();
		expect(failed?.next).toBe(`kubectl logs -n kanister ${dumpPod} -c container`);
		const end = diagnosed(storeUntil(recording.entries, recording.startMs, () => false), 'dumpDatabase');
		expect(end?.pods.map(p => [p.name, p.reason])).toEqual([[dumpPod, 'exited']]);
		expect(end?.logGone).toBe(true);
		expect(end?.logTail).toEqual(dumpLog);
		expect(recording.entries.some(e => e.event.type === 'delete' && e.event.resource === 'Pod' && e.event.object.metadata?.name === dumpPod)).toBe(true);
	});

	it('a KubeTask phase that succeeds: its pod and log while it ran (no JobID on this ActionSet), its output after', async () => {
		const [pod] = podNames('kubetask-ok') as [string];
		const run = await replayStream(file('kubetask-ok'), {wait: true, stepMs: 1});
		expect(run.result).toEqual({exitCode: 0, message: 'taskOk completed'});
		expect(run.stdout).toMatch(/\n {3}└─ ✔ checkDatabase +complete {2}0:0\d\n {6}output: tables=3\n/);
		const recording = await loadRecording(file('kubetask-ok'));
		const lastLog = recording.entries.findLast(e => e.event.type === 'log' && e.event.pod === pod)!;
		const during = diagnosed(storeUntil(recording.entries, recording.startMs, e => e.at > lastLog.at), 'checkDatabase');
		expect(during?.pods.map(p => [p.name, p.reason])).toEqual([[pod, 'ready']]);
		expect(during?.logTail).toEqual([
			'checking the database shop-db in namespace kanister',
			'shop-db answers: 3 tables, 1.2 MiB',
			'check passed',
			'###Phase-output###: {"key":"tables","value":"3"}',
		]);
	});
});
