import {describe, expect, test} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import {podFacts, type PodEvent, type PodReason} from '../../source/model/pod-reason.js';

/** A pod as a kubelet would write it: one container `app` with the given status parts. */
function pod(status: Record<string, unknown>, meta: Record<string, unknown> = {}): KubeObject {
	return {
		apiVersion: 'v1',
		kind: 'Pod',
		metadata: {name: 'web-0', namespace: 'ns', uid: 'u1', creationTimestamp: '2026-01-01T00:00:00Z', labels: {app: 'web'}, ...meta},
		spec: {containers: [{name: 'app', image: 'nginx'}]},
		status,
	};
}

function container(parts: Record<string, unknown>): Record<string, unknown> {
	return {name: 'app', ready: false, restartCount: 0, ...parts};
}

const running = {phase: 'Running', conditions: [{type: 'PodScheduled', status: 'True'}, {type: 'Ready', status: 'False'}]};

type Row = {
	readonly name: string;
	readonly pod: KubeObject;
	readonly events?: PodEvent[];
	readonly reason: PodReason;
	readonly words: string;
	/** The reason in a word or two (the list's rows). */
	readonly short: string;
	readonly trouble: boolean;
	readonly previous?: boolean;
	readonly container?: string;
};

const rows: Row[] = [
	{
		name: 'image pull back-off',
		pod: pod({phase: 'Pending', containerStatuses: [container({state: {waiting: {reason: 'ImagePullBackOff', message: 'Back-off pulling image "nginx:nope"'}}})]}),
		reason: 'image-pull',
		words: 'ImagePullBackOff: the image of container app cannot be pulled: Back-off pulling image "nginx:nope"',
		short: 'ImagePullBackOff',
		trouble: true,
	},
	{
		name: 'image pull error',
		pod: pod({phase: 'Pending', containerStatuses: [container({state: {waiting: {reason: 'ErrImagePull'}}})]}),
		reason: 'image-pull',
		words: 'ErrImagePull: the image of container app cannot be pulled',
		short: 'ErrImagePull',
		trouble: true,
	},
	{
		name: 'crash loop with restarts and the last exit',
		pod: pod({...running, containerStatuses: [container({restartCount: 7, state: {waiting: {reason: 'CrashLoopBackOff'}}, lastState: {terminated: {exitCode: 1, reason: 'Error'}}})]}),
		reason: 'crash-loop',
		words: 'CrashLoopBackOff: container app keeps crashing, 7 restarts, last exit code 1 (Error)',
		short: 'CrashLoopBackOff',
		trouble: true,
		previous: true,
	},
	{
		name: 'OOMKilled and restarted: the previous log',
		pod: pod({...running, containerStatuses: [container({restartCount: 1, state: {running: {}}, lastState: {terminated: {exitCode: 137, reason: 'OOMKilled'}}})]}),
		reason: 'oom-killed',
		words: 'OOMKilled: container app ran out of memory, 1 restart',
		short: 'OOMKilled',
		trouble: true,
		previous: true,
	},
	{
		name: 'OOMKilled now: the current log',
		pod: pod({phase: 'Failed', containerStatuses: [container({restartCount: 0, state: {terminated: {exitCode: 137, reason: 'OOMKilled'}}})]}),
		reason: 'oom-killed',
		words: 'OOMKilled: container app ran out of memory, 0 restarts',
		short: 'OOMKilled',
		trouble: true,
		previous: false,
	},
	{
		name: 'unschedulable: the scheduler Event message wins over the condition',
		pod: pod({phase: 'Pending', conditions: [{type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: 'old message'}]}),
		events: [
			{pod: 'web-0', reason: 'FailedScheduling', message: '0/3 nodes are available: 3 Insufficient cpu.', time: '2026-01-01T00:00:05Z'},
			{pod: 'web-0', reason: 'FailedScheduling', message: 'older', time: '2026-01-01T00:00:01Z'},
			{pod: 'other', reason: 'FailedScheduling', message: 'not this pod', time: '2026-01-01T00:00:09Z'},
		],
		reason: 'unschedulable',
		words: 'Pending: not scheduled: 0/3 nodes are available: 3 Insufficient cpu.',
		short: 'Unschedulable',
		trouble: true,
	},
	{
		name: 'unschedulable without an Event: the condition message',
		pod: pod({phase: 'Pending', conditions: [{type: 'PodScheduled', status: 'False', message: '0/1 nodes are available'}]}),
		reason: 'unschedulable',
		words: 'Pending: not scheduled: 0/1 nodes are available',
		short: 'Unschedulable',
		trouble: true,
	},
	{
		name: 'failing readiness probe with its Event',
		pod: pod({...running, containerStatuses: [container({state: {running: {}}})]}),
		events: [{pod: 'web-0', reason: 'Unhealthy', message: 'Readiness probe failed: HTTP probe failed with statuscode: 503'}],
		reason: 'not-ready',
		words: 'running, not ready (0/1): Readiness probe failed: HTTP probe failed with statuscode: 503',
		short: 'Readiness probe failed',
		trouble: true,
	},
	{
		name: 'exited with a non-zero code',
		pod: pod({phase: 'Failed', containerStatuses: [container({state: {terminated: {exitCode: 2, reason: 'Error', message: 'boom'}}})]}),
		reason: 'exited',
		words: 'container app failed: exit code 2 (Error): boom',
		short: 'exit code 2',
		trouble: true,
	},
	{
		name: 'config error',
		pod: pod({phase: 'Pending', containerStatuses: [container({state: {waiting: {reason: 'CreateContainerConfigError', message: 'secret "db" not found'}}})]}),
		reason: 'config-error',
		words: 'CreateContainerConfigError in container app: secret "db" not found',
		short: 'CreateContainerConfigError',
		trouble: true,
	},
	{
		name: 'failed init container comes first',
		pod: {
			...pod({
				phase: 'Pending',
				initContainerStatuses: [{name: 'init', restartCount: 3, state: {waiting: {reason: 'CrashLoopBackOff'}}}],
				containerStatuses: [container({state: {waiting: {reason: 'PodInitializing'}}})],
			}),
		},
		reason: 'crash-loop',
		words: 'CrashLoopBackOff: init container init keeps crashing, 3 restarts',
		short: 'CrashLoopBackOff',
		trouble: true,
		previous: true,
		container: 'init',
	},
	{
		name: 'evicted (pod failed without container detail)',
		pod: pod({phase: 'Failed', reason: 'Evicted', message: 'The node was low on resource: memory.'}),
		reason: 'failed',
		words: 'Failed (Evicted): The node was low on resource: memory.',
		short: 'Evicted',
		trouble: true,
	},
	{
		name: 'running and ready',
		pod: pod({phase: 'Running', conditions: [{type: 'Ready', status: 'True'}], containerStatuses: [container({ready: true, state: {running: {}}})]}),
		reason: 'ready',
		words: 'running, ready',
		short: 'Running',
		trouble: false,
	},
	{
		name: 'completed',
		pod: pod({phase: 'Succeeded', containerStatuses: [container({state: {terminated: {exitCode: 0, reason: 'Completed'}}})]}),
		reason: 'succeeded',
		words: 'completed',
		short: 'Completed',
		trouble: false,
	},
	{
		name: 'pending, scheduled, creating',
		pod: pod({phase: 'Pending', conditions: [{type: 'PodScheduled', status: 'True'}], containerStatuses: [container({state: {waiting: {reason: 'ContainerCreating'}}})]}),
		reason: 'pending',
		words: 'Pending: waiting for its containers to start',
		short: 'Pending',
		trouble: false,
	},
	{
		name: 'terminating',
		pod: pod({phase: 'Running'}, {deletionTimestamp: '2026-01-01T00:01:00Z'}),
		reason: 'terminating',
		words: 'terminating',
		short: 'Terminating',
		trouble: false,
	},
	{
		// The real Kanister controller deletes a KubeTask pod right after its container exits 1: the last state seen is
		// that deletion (test/fixtures/kanister-recorded/kubetask-failed.ndjson), and why it failed still matters.
		name: 'failed and being deleted: what it ended with',
		pod: pod({phase: 'Failed', containerStatuses: [container({state: {terminated: {exitCode: 1, reason: 'Error', message: 'mysqldump exited 2'}}})]},
			{deletionTimestamp: '2026-01-01T00:01:00Z'}),
		reason: 'exited',
		words: 'container app failed: exit code 1 (Error): mysqldump exited 2',
		short: 'exit code 1',
		trouble: true,
	},
	{
		name: 'succeeded and being deleted',
		pod: pod({phase: 'Succeeded', containerStatuses: [container({state: {terminated: {exitCode: 0, reason: 'Completed'}}})]}, {deletionTimestamp: '2026-01-01T00:01:00Z'}),
		reason: 'succeeded',
		words: 'completed',
		short: 'Completed',
		trouble: false,
	},
	{
		name: 'no status yet',
		pod: pod({}),
		reason: 'unknown',
		words: 'no status yet',
		short: 'no status',
		trouble: false,
	},
	{
		name: 'invalid image name',
		pod: pod({phase: 'Pending', containerStatuses: [container({state: {waiting: {reason: 'InvalidImageName', message: 'couldn\'t parse image reference "NGINX:"'}}})]}),
		reason: 'image-pull',
		words: 'InvalidImageName: the image of container app cannot be pulled: couldn\'t parse image reference "NGINX:"',
		short: 'InvalidImageName',
		trouble: true,
	},
	{
		name: 'image never pulled (imagePullPolicy Never, not on the node)',
		pod: pod({phase: 'Pending', containerStatuses: [container({state: {waiting: {reason: 'ErrImageNeverPull'}}})]}),
		reason: 'image-pull',
		words: 'ErrImageNeverPull: the image of container app cannot be pulled',
		short: 'ErrImageNeverPull',
		trouble: true,
	},
	{
		name: 'create container error after restarts: the previous log',
		pod: pod({...running, containerStatuses: [container({restartCount: 2, state: {waiting: {reason: 'CreateContainerError', message: 'context deadline exceeded'}}})]}),
		reason: 'config-error',
		words: 'CreateContainerError in container app: context deadline exceeded',
		short: 'CreateContainerError',
		trouble: true,
		previous: true,
	},
	{
		name: 'run container error',
		pod: pod({...running, containerStatuses: [container({state: {waiting: {reason: 'RunContainerError'}}})]}),
		reason: 'config-error',
		words: 'RunContainerError in container app',
		short: 'RunContainerError',
		trouble: true,
	},
	{
		name: 'another waiting reason (not creating, not initializing)',
		pod: pod({phase: 'Pending', containerStatuses: [container({state: {waiting: {reason: 'ContainerStatusUnknown', message: 'lost'}}})]}),
		reason: 'waiting',
		words: 'ContainerStatusUnknown in container app: lost',
		short: 'ContainerStatusUnknown',
		trouble: true,
	},
	{
		name: 'terminated non-zero without an exit code written',
		pod: pod({phase: 'Failed', containerStatuses: [container({state: {terminated: {reason: 'Error', exitCode: 'x'}}})]}),
		reason: 'failed',
		words: 'Failed',
		short: 'Failed',
		trouble: true,
	},
	{
		name: 'pod failed with neither reason nor message',
		pod: pod({phase: 'Failed'}),
		reason: 'failed',
		words: 'Failed',
		short: 'Failed',
		trouble: true,
	},
	{
		name: 'running, not ready, no probe Event, no running container: not trouble yet',
		pod: pod({...running, containerStatuses: [container({state: {}})]}),
		reason: 'waiting',
		words: 'running, not ready (0/1)',
		short: 'not ready',
		trouble: false,
	},
	{
		name: 'running, a container not ready and no Event: not ready, trouble',
		pod: pod({...running, containerStatuses: [container({state: {running: {}}})]}),
		reason: 'not-ready',
		words: 'running, not ready (0/1)',
		short: 'not ready',
		trouble: true,
	},
	{
		name: 'an unknown phase',
		pod: pod({phase: 'Unknown'}),
		reason: 'unknown',
		words: 'phase Unknown',
		short: 'Unknown',
		trouble: false,
	},
];

describe('podFacts: every reason a pod is not well, in words', () => {
	test.each(rows)('$name', row => {
		const facts = podFacts(row.pod, row.events);
		expect(facts.reason).toBe(row.reason);
		expect(facts.words).toBe(row.words);
		expect(facts.short).toBe(row.short);
		expect(facts.trouble).toBe(row.trouble);
		expect(facts.previous).toBe(row.previous ?? false);
		if (row.container) {
			expect(facts.container).toBe(row.container);
		}
	});

	// What the kubelet can serve (k8s.io/kubernetes v1.36.3 pkg/kubelet/kubelet_pods.go validateContainerLogStatus):
	// nothing before the container started (`… is waiting to start`), a previous log once an instance ended.
	test.each([
		['Pending, no container status yet (a KubeTask pod just created)', pod({phase: 'Pending', conditions: [{type: 'PodScheduled', status: 'True'}]}), false],
		['waiting in ContainerCreating', pod({phase: 'Pending', containerStatuses: [container({state: {waiting: {reason: 'ContainerCreating'}}})]}), false],
		['running', pod({...running, containerStatuses: [container({state: {running: {startedAt: '2026-01-01T00:00:00Z'}}})]}), true],
		['terminated (exit 1)', pod({phase: 'Failed', containerStatuses: [container({state: {terminated: {exitCode: 1, reason: 'Error'}}})]}), true],
		['crash loop: the previous instance ended', pod({...running, containerStatuses: [container({restartCount: 3, state: {waiting: {reason: 'CrashLoopBackOff'}},
			lastState: {terminated: {exitCode: 1}}})]}), true],
		['crash loop, restarts counted but lastState not written yet', pod({...running, containerStatuses: [container({restartCount: 1, state: {waiting: {reason: 'CrashLoopBackOff'}}})]}), true],
	])('hasLog: %s → %s', (_name, raw, has) => {
		expect(podFacts(raw).hasLog).toBe(has);
	});

	test('restarts, ready counts and names; hostile text is sanitized', () => {
		const facts = podFacts(pod({...running, containerStatuses: [container({restartCount: 4, state: {waiting: {reason: 'Crash\u001B[2JLoopBackOff'}}})]}, {name: 'web\u001B]0;x\u0007-0'}));
		expect(facts.name).toBe('web-0');
		expect(facts.restarts).toBe(4);
		expect(facts.ready).toBe('0/1');
		expect(facts.words).not.toContain('\u001B');
	});
});
