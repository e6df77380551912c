/**
 * What the KUDO manager applied for a step, and whether KUDO calls it healthy.
 *
 * The marks, as kudobuilder/kudo v0.19.0 writes them (pkg/engine/renderer/enhancer.go, pkg/util/kudo/labels.go):
 * labels `heritage: kudo`, `kudo.dev/operator`, `kudo.dev/instance` on the object and on its pod template; the
 * annotations `kudo.dev/plan`, `kudo.dev/phase`, `kudo.dev/step` and `kudo.dev/last-plan-execution-uid` on the
 * top-level object only (the last step that applied it); a controller ownerReference to the Instance for
 * namespaced objects. Health is KUDO's (pkg/kubernetes/status/health.go IsHealthy, which uses kubectl's rollout
 * status viewers for Deployments and StatefulSets): Jobs are healthy at one success and failed for good with a
 * `Failed` condition; kinds it has no rule for are healthy once created.
 */
import type {KubeObject} from '../core/kube-object.js';
import {maxMessageLength, maxNameLength, sanitizeLine} from './sanitize.js';

export const kudoMarks = {
	heritage: 'heritage',
	instance: 'kudo.dev/instance',
	operator: 'kudo.dev/operator',
	plan: 'kudo.dev/plan',
	phase: 'kudo.dev/phase',
	step: 'kudo.dev/step',
	planUid: 'kudo.dev/last-plan-execution-uid',
} as const;

/** The label selector that finds every object KUDO applied for an Instance (and the pods of its templates). */
export function kudoInstanceSelector(instance: string): string {
	return `${kudoMarks.heritage}=kudo,${kudoMarks.instance}=${instance}`;
}

type Raw = Record<string, unknown>;

function record(value: unknown): Raw {
	return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Raw) : {};
}

const name = (v: unknown): string => sanitizeLine(v, maxNameLength);

/** The records of a list field (conditions, ownerReferences); anything else is none. */
function records(value: unknown): Raw[] {
	return Array.isArray(value) ? value.map(v => record(v)) : [];
}

/** Where an applied object came from, read off its marks (sanitized); undefined when KUDO did not apply it. */
export type AppliedFor = {
	readonly instance: string;
	readonly plan: string;
	readonly phase: string;
	readonly step: string;
	readonly planUid?: string;
};

export function appliedFor(raw: KubeObject): AppliedFor | undefined {
	const meta = record(raw.metadata);
	const labels = record(meta['labels']);
	const annotations = record(meta['annotations']);
	if (labels[kudoMarks.heritage] !== 'kudo' || typeof labels[kudoMarks.instance] !== 'string') {
		return undefined;
	}

	const instance = name(labels[kudoMarks.instance]);
	// A namespaced object is owned by its Instance: an owner of another name means the label was copied by hand.
	const owner = records(meta['ownerReferences']).find(o => o['controller'] === true);
	if (owner && owner['kind'] === 'Instance' && name(owner['name']) !== instance) {
		return undefined;
	}

	const step = name(annotations[kudoMarks.step]);
	if (!step) {
		return undefined;
	}

	const uid = name(annotations[kudoMarks.planUid]);
	const plan = name(annotations[kudoMarks.plan]);
	return {instance, plan, phase: name(annotations[kudoMarks.phase]), step, ...(uid ? {planUid: uid} : {})};
}

/** Applied for exactly this step of this Instance's plan (names as the adapters sanitized them). */
export function isAppliedFor(
	raw: KubeObject,
	target: {readonly instance: string; readonly plan: string; readonly phase: string; readonly step: string},
): boolean {
	const a = appliedFor(raw);
	return a !== undefined &&
		a.instance === target.instance &&
		a.plan === target.plan &&
		a.phase === target.phase &&
		a.step === target.step;
}

export type ResourceHealth = {
	readonly kind: string;
	readonly namespace: string;
	readonly name: string;
	readonly healthy: boolean;
	/** It will never become healthy (a Job with a `Failed` condition). */
	readonly terminal: boolean;
	/** Short summary: `1/3 ready`, `succeeded`, `failed: BackoffLimitExceeded`. */
	readonly words: string;
};

function int(value: unknown, fallback = 0): number {
	return typeof value === 'number' && Number.isFinite(value) ? Math.floor(value) : fallback;
}

/** kubectl's DeploymentStatusViewer (pkg/polymorphichelpers/rollout_status.go), as KUDO calls it. */
function deploymentHealth(meta: Raw, spec: Raw, status: Raw): {healthy: boolean; terminal: boolean; words: string} {
	const desired = int(spec['replicas'], 1);
	const ready = int(status['readyReplicas']);
	const counts = `${ready}/${desired} ready`;
	if (int(meta['generation']) > int(status['observedGeneration'])) {
		return {healthy: false, terminal: false, words: `${counts}, waiting for the spec update to be observed`};
	}

	const progressing = records(status['conditions']).find(c => c['type'] === 'Progressing');
	if (progressing?.['reason'] === 'ProgressDeadlineExceeded') {
		return {healthy: false, terminal: false, words: `${counts}, exceeded its progress deadline`};
	}

	const updated = int(status['updatedReplicas']);
	const replicas = int(status['replicas']);
	const available = int(status['availableReplicas']);
	if (updated < desired) {
		return {healthy: false, terminal: false, words: `${counts}, ${updated} of ${desired} new replicas updated`};
	}

	if (replicas > updated) {
		return {healthy: false, terminal: false, words: `${counts}, ${replicas - updated} old replicas pending termination`};
	}

	if (available < updated) {
		return {healthy: false, terminal: false, words: `${counts}, ${available} of ${updated} updated replicas available`};
	}

	return {healthy: true, terminal: false, words: counts};
}

/** kubectl's StatefulSetStatusViewer. */
function statefulSetHealth(meta: Raw, spec: Raw, status: Raw): {healthy: boolean; terminal: boolean; words: string} {
	const desired = int(spec['replicas'], 1);
	const ready = int(status['readyReplicas']);
	const counts = `${ready}/${desired} ready`;
	const strategy = record(spec['updateStrategy']);
	if ((strategy['type'] ?? 'RollingUpdate') !== 'RollingUpdate') {
		return {healthy: false, terminal: false, words: `${counts}, rollout status is only available for the RollingUpdate strategy`};
	}

	const observed = int(status['observedGeneration']);
	if (observed === 0 || int(meta['generation']) > observed) {
		return {healthy: false, terminal: false, words: `${counts}, waiting for the spec update to be observed`};
	}

	if (ready < desired) {
		return {healthy: false, terminal: false, words: `${counts}, waiting for ${desired - ready} pods to be ready`};
	}

	const rolling = record(strategy['rollingUpdate']);
	if (typeof rolling['partition'] === 'number') {
		const want = desired - int(rolling['partition']);
		const updated = int(status['updatedReplicas']);
		return updated < want
			? {healthy: false, terminal: false, words: `${counts}, ${updated} of ${want} new pods updated`}
			: {healthy: true, terminal: false, words: counts};
	}

	if (status['updateRevision'] !== status['currentRevision']) {
		return {healthy: false, terminal: false, words: `${counts}, rolling update to ${name(status['updateRevision'])} not complete`};
	}

	return {healthy: true, terminal: false, words: counts};
}

function jobHealth(status: Raw): {healthy: boolean; terminal: boolean; words: string} {
	const failedCondition = records(status['conditions']).find(c => c['type'] === 'Failed' && c['status'] === 'True');
	if (failedCondition) {
		const reason = sanitizeLine(failedCondition['reason'], 100);
		const message = sanitizeLine(failedCondition['message'], maxMessageLength);
		return {healthy: false, terminal: true, words: `failed${reason ? ` (${reason})` : ''}${message ? `: ${message}` : ''}`};
	}

	if (int(status['succeeded']) === 1) {
		return {healthy: true, terminal: false, words: 'succeeded'};
	}

	return {healthy: false, terminal: false, words: `running: ${int(status['active'])} active, ${int(status['failed'])} failed`};
}

/** Health of one applied object as KUDO judges it. */
export function kudoHealth(raw: KubeObject): ResourceHealth {
	const meta = record(raw.metadata);
	const spec = record(raw['spec']);
	const status = record(raw['status']);
	const kind = name(raw.kind);
	const base = {kind, namespace: name(meta['namespace']), name: name(meta['name'])};
	switch (kind) {
		case 'Deployment': {
			return {...base, ...deploymentHealth(meta, spec, status)};
		}

		case 'StatefulSet': {
			return {...base, ...statefulSetHealth(meta, spec, status)};
		}

		case 'Job': {
			return {...base, ...jobHealth(status)};
		}

		case 'Pod': {
			const ready = records(status['conditions']).some(c => c['type'] === 'Ready' && c['status'] === 'True');
			const healthy = status['phase'] === 'Running' && ready;
			const words = healthy ? 'running, ready' : `not running yet: ${name(status['phase']) || 'no status'}`;
			return {...base, healthy, terminal: false, words};
		}

		default: {
			return {...base, healthy: true, terminal: false, words: 'healthy once created'};
		}
	}
}

/** The pods a workload runs: its `spec.selector.matchLabels` all on the pod (matchExpressions are not read). */
export function selectsPod(workload: KubeObject, pod: KubeObject): boolean {
	const selector = record(record(record(workload['spec'])['selector']));
	const match = record(selector['matchLabels']);
	const entries = Object.entries(match);
	const workloadNs = record(workload.metadata)['namespace'];
	if (entries.length === 0 || record(pod.metadata)['namespace'] !== workloadNs) {
		return false;
	}

	const labels = record(record(pod.metadata)['labels']);
	return entries.every(([k, v]) => labels[k] === v);
}
