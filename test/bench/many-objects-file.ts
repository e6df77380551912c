/**
 * A big `-f` input for the memory bench: `count` KUDO Instances (the in-progress mysql fixture under generated
 * names, about 1.5 KB of YAML each: 10 000 make a 15 MB file) and their OperatorVersion, as one multi-document
 * YAML file in a fresh temporary directory. Written on demand by `npm run bench` (and removed after), never
 * committed.
 */
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {loadAll} from 'js-yaml';
import {repoRoot as root} from './repo-root.js';

function fixture(relativePath: string): string {
	// Without the leading comment block: only what `kubectl get -o yaml` would print.
	return readFileSync(path.join(root, 'test', 'fixtures', relativePath), 'utf8').replace(/^(?:#.*\n)+/, '');
}

/** Writes the file and returns its path. One in five Instances has finished its deploy, one in 50 failed. */
export function writeManyObjectsFile(count: number, directory = mkdtempSync(path.join(os.tmpdir(), 'planwatch-many-'))): string {
	const instance = fixture('kudo/instance-mysql-deploy-in-progress.yaml');
	const parts: string[] = [fixture('kudo/operatorversion-mysql.yaml')];
	for (let i = 0; i < count; i++) {
		const name = `mysql-${String(i).padStart(5, '0')}`;
		let text = instance
			.replace(/^ {2}name: mysql-instance$/m, `  name: ${name}`)
			.replace(/^ {2}uid: .*$/m, `  uid: 5f0c1a2e-6d0e-4c1b-9a55-${String(i).padStart(12, '0')}`);
		if (i % 50 === 7) {
			text = text.replaceAll('IN_PROGRESS', 'FATAL_ERROR');
		} else if (i % 5 === 0) {
			text = text.replaceAll('IN_PROGRESS', 'COMPLETE').replaceAll('PENDING', 'COMPLETE');
		}

		parts.push(text);
	}

	const file = path.join(directory, `instances-${count}.yaml`);
	writeFileSync(file, parts.join('---\n'));
	return file;
}

/**
 * The same objects as writeManyObjectsFile, as `kubectl get instances,operatorversions -o json` writes them: one
 * `kind: List` JSON document, indented by four spaces, items in order.
 */
export function writeManyObjectsJsonList(count: number, directory = mkdtempSync(path.join(os.tmpdir(), 'planwatch-many-'))): string {
	const yamlFile = writeManyObjectsFile(count, directory);
	const items = (loadAll(readFileSync(yamlFile, 'utf8')) as unknown[]).filter(d => d !== null && typeof d === 'object');
	const file = path.join(directory, `instances-${count}.json`);
	writeFileSync(file, `${JSON.stringify({apiVersion: 'v1', items, kind: 'List', metadata: {resourceVersion: ''}}, undefined, 4)}\n`);
	return file;
}

/**
 * One KUDO Instance whose active plan has `steps` steps (100 phases), all shown when expanded: step `steps / 2`
 * runs, the ones before it are COMPLETE. With its OperatorVersion, for the idle-CPU bench of a huge tree. JSON
 * documents (JSON is YAML).
 */
export function writeBigPlanFile(steps: number, directory = mkdtempSync(path.join(os.tmpdir(), 'planwatch-big-plan-'))): string {
	const phases = 100;
	const perPhase = Math.ceil(steps / phases);
	const running = Math.floor(steps / 2);
	const statusPhases: unknown[] = [];
	const specPhases: unknown[] = [];
	for (let p = 0, n = 0; p < phases && n < steps; p++) {
		const first = n;
		const names = Array.from({length: Math.min(perPhase, steps - n)}, () => `step-${n++}`);
		const stepStatus = (i: number): string => (i < running ? 'COMPLETE' : i === running ? 'IN_PROGRESS' : 'PENDING');
		const last = n - 1;
		const phaseStatus = last < running ? 'COMPLETE' : first <= running ? 'IN_PROGRESS' : 'PENDING';
		statusPhases.push({name: `phase-${p}`, status: phaseStatus, steps: names.map((name, i) => ({name, status: stepStatus(first + i)}))});
		specPhases.push({name: `phase-${p}`, strategy: 'serial', steps: names.map(name => ({name, tasks: ['noop']}))});
	}

	const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
	const operatorVersion = {
		apiVersion: 'kudo.dev/v1beta1',
		kind: 'OperatorVersion',
		metadata: {name: 'big-0.1.0', namespace: 'default'},
		spec: {plans: {deploy: {strategy: 'serial', phases: specPhases}}},
	};
	const instance = {
		apiVersion: 'kudo.dev/v1beta1',
		kind: 'Instance',
		metadata: {name: 'big', namespace: 'default', creationTimestamp: now},
		spec: {operatorVersion: {name: 'big-0.1.0'}, planExecution: {planName: 'deploy', uid: 'u1', status: 'IN_PROGRESS'}},
		status: {planStatus: {deploy: {name: 'deploy', status: 'IN_PROGRESS', uid: 'u1', lastUpdatedTimestamp: now, phases: statusPhases}}},
	};
	const file = path.join(directory, `big-plan-${steps}.yaml`);
	writeFileSync(file, `${JSON.stringify(operatorVersion)}\n---\n${JSON.stringify(instance)}\n`);
	return file;
}
