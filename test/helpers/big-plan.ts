/**
 * A KUDO Instance with one serial plan `deploy` of one phase `all` of `steps` steps, and its OperatorVersion: the
 * big plan of the 500-step tree figures (test/bench) and of the tests that count what one step's update costs.
 */
import type {KubeObject} from '../../source/core/kube-object.js';

/** `step-000`, `step-001`, …: the steps' names. */
export function bigStepNames(steps: number): string[] {
	return Array.from({length: steps}, (_, i) => `step-${String(i).padStart(3, '0')}`);
}

type Shape = {
	readonly steps: number;
	readonly namespace: string;
	/** More metadata (uid, resourceVersion); name, namespace and creationTimestamp are set. */
	readonly metadata?: Readonly<Record<string, string>>;
};

const createdAt = '2026-11-30T11:00:00Z';

export function bigPlanOperatorVersion({steps, namespace, metadata}: Shape): KubeObject {
	const names = bigStepNames(steps);
	return {
		apiVersion: 'kudo.dev/v1beta1',
		kind: 'OperatorVersion',
		metadata: {name: 'big-0.1.0', namespace, creationTimestamp: createdAt, ...metadata},
		spec: {
			operator: {name: 'big', kind: 'Operator'},
			version: '0.1.0',
			tasks: names.map(name => ({name, kind: 'Dummy', spec: {done: true}})),
			plans: {deploy: {strategy: 'serial', phases: [{name: 'all', strategy: 'serial', steps: names.map(name => ({name, tasks: [name]}))}]}},
		},
	};
}

/** The Instance at step `running` (the ones before it COMPLETE, the ones after PENDING). */
export function bigPlanInstance(running: number, shape: Shape & {readonly planUid: string; readonly lastUpdatedTimestamp?: string}): KubeObject {
	const {steps, namespace, metadata, planUid, lastUpdatedTimestamp} = shape;
	const status = (i: number) => (i < running ? 'COMPLETE' : i === running ? 'IN_PROGRESS' : 'PENDING');
	return {
		apiVersion: 'kudo.dev/v1beta1',
		kind: 'Instance',
		metadata: {name: 'big', namespace, creationTimestamp: createdAt, ...metadata},
		spec: {operatorVersion: {name: 'big-0.1.0'}},
		status: {
			planStatus: {
				deploy: {
					name: 'deploy',
					status: 'IN_PROGRESS',
					uid: planUid,
					...(lastUpdatedTimestamp === undefined ? {} : {lastUpdatedTimestamp}),
					phases: [{name: 'all', strategy: 'serial', status: 'IN_PROGRESS', steps: bigStepNames(steps).map((name, i) => ({name, status: status(i)}))}],
				},
			},
		},
	};
}
