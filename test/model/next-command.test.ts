import {describe, expect, test} from 'vitest';
import {nextCommand, shellQuote} from '../../source/model/next-command.js';
import type {PodFacts, PodReason} from '../../source/model/pod-reason.js';

function pod(reason: PodReason, extra: Partial<PodFacts> = {}): PodFacts {
	return {
		namespace: 'ns', name: 'web-0', phase: 'Running', ready: '0/1', restarts: 0, reason, words: '', container: 'app', previous: false, hasLog: true, trouble: true, labels: {},
		deleting: false, ...extra,
	};
}

describe('shellQuote', () => {
	test.each([
		['web-0', 'web-0'],
		['involvedObject.name=web-0', 'involvedObject.name=web-0'],
		['', "''"],
		['a b', "'a b'"],
		["it's", String.raw`'it'\''s'`],
		['$(rm -rf /)', "'$(rm -rf /)'"],
		['`x`;y', "'`x`;y'"],
	])('%j → %s', (word, quoted) => {
		expect(shellQuote(word)).toBe(quoted);
	});
});

describe('nextCommand: every reason → the command to run next', () => {
	test.each<[string, Parameters<typeof nextCommand>[0], string]>([
		['crash loop: the previous log', {kind: 'pod', pod: pod('crash-loop', {previous: true})}, 'kubectl logs -n ns web-0 -c app --previous'],
		['exited: the current log', {kind: 'pod', pod: pod('exited')}, 'kubectl logs -n ns web-0 -c app'],
		['oom killed and restarted', {kind: 'pod', pod: pod('oom-killed', {previous: true})}, 'kubectl logs -n ns web-0 -c app --previous'],
		['failed pod', {kind: 'pod', pod: pod('failed')}, 'kubectl logs -n ns web-0 -c app'],
		['unschedulable: the events', {kind: 'pod', pod: pod('unschedulable')}, 'kubectl get events -n ns --field-selector involvedObject.name=web-0'],
		['image pull: describe', {kind: 'pod', pod: pod('image-pull')}, 'kubectl describe pod -n ns web-0'],
		['not ready: describe (probe events)', {kind: 'pod', pod: pod('not-ready')}, 'kubectl describe pod -n ns web-0'],
		['config error: describe', {kind: 'pod', pod: pod('config-error')}, 'kubectl describe pod -n ns web-0'],
		['an unhealthy object', {kind: 'resource', resource: {kind: 'StatefulSet', namespace: 'ns', name: 'db', healthy: false, terminal: false, words: ''}}, 'kubectl describe statefulset -n ns db'],
		['a failed KUDO plan: trigger it again', {kind: 'kudo-step', namespace: 'ns', instance: 'inst', plan: 'deploy', failed: true}, 'kubectl kudo plan trigger --name deploy --instance inst -n ns'],
		['a stuck KUDO step: its events', {kind: 'kudo-step', namespace: 'ns', instance: 'inst', plan: 'deploy', failed: false}, 'kubectl get events -n ns --field-selector involvedObject.name=inst'],
		[
			'a failed Kanister action: run it again from it',
			{kind: 'kanister-action', namespace: 'kanister', actionSet: 'backup-x', action: 'backup', failed: true},
			'kanctl create actionset --action backup --from backup-x --namespace kanister',
		],
		[
			'a stuck Kanister action: its events',
			{kind: 'kanister-action', namespace: 'kanister', actionSet: 'backup-x', action: 'backup', failed: false},
			'kubectl get events -n kanister --field-selector involvedObject.name=backup-x',
		],
		['a pod without a container name', {kind: 'pod', pod: pod('exited', {container: undefined})}, 'kubectl logs -n ns web-0'],
	])('%s', (_name, input, expected) => {
		expect(nextCommand(input)).toBe(expected);
	});

	test('odd names are quoted', () => {
		expect(nextCommand({kind: 'kudo-step', namespace: 'ns', instance: 'inst', plan: "my plan's", failed: true})).toBe(
			String.raw`kubectl kudo plan trigger --name 'my plan'\''s' --instance inst -n ns`,
		);
	});
});
