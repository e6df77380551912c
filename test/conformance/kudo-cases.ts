/**
 * KUDO conformance cases: Instance states as kudobuilder/kudo@50ef7232 writes them (controller and webhook), each
 * with the source lines it encodes and the outcome planwatch must give. Built here, not copied from upstream.
 */
import type {KubeObject} from '../../source/core/kube-object.js';
import type {NodeState, Outcome} from '../../source/model/plan-tree.js';

export const namespace = 'conformance';
export const updated = '2026-01-01T10:05:00Z';

type Step = readonly [string, string];
type Phase = {readonly name: string; readonly status: string; readonly steps: readonly Step[]};
export type PlanDef = {readonly status: string; readonly uid?: string; readonly updatedAt?: string; readonly phases: readonly Phase[]};

export type KudoCase = {
	readonly name: string;
	/** Upstream file:lines (kudobuilder/kudo) the case encodes. */
	readonly cites: string;
	readonly planExecution?: {readonly planName: string; readonly uid: string};
	readonly plans: Readonly<Record<string, PlanDef>>;
	/** The Instance when the wait began (for the uid snapshot of `plan trigger --wait`). */
	readonly baseline?: Omit<KudoCase, 'name' | 'cites' | 'baseline' | 'outcome' | 'exitCode'>;
	readonly outcome: Outcome;
	/** undefined = keep waiting. */
	readonly exitCode?: 0 | 1;
	readonly active?: string;
	/** Node states by path (`plan/phase/step`). */
	readonly states?: Readonly<Record<string, NodeState>>;
	readonly summaryHas?: readonly string[];
};

const engine = 'pkg/engine/workflow/engine.go';
const types = 'pkg/apis/kudo/v1beta1/instance_types.go';
const helpers = 'pkg/apis/kudo/v1beta1/instance_types_helpers.go';
const controller = 'pkg/controller/instance/instance_controller.go';
const kudoCli = 'pkg/kudoctl/util/kudo/kudo.go';

const deploy = (status: string, steps: readonly Step[], phase = status): Record<string, PlanDef> => ({
	deploy: {status, uid: 'u1', updatedAt: updated, phases: [{name: 'main', status: phase, steps}]},
});

export const kudoCases: readonly KudoCase[] = [
	{
		name: 'in-progress',
		cites: `${types}:210-222 (IsRunning: IN_PROGRESS, PENDING, ERROR)`,
		planExecution: {planName: 'deploy', uid: 'u1'},
		plans: deploy('IN_PROGRESS', [['app', 'COMPLETE'], ['init', 'IN_PROGRESS']]),
		outcome: 'running',
		states: {'deploy/main/init': 'running'},
	},
	{
		name: 'transient-error',
		cites: `${engine}:192-195 (any other error sets only the step to ERROR and retries)`,
		planExecution: {planName: 'deploy', uid: 'u1'},
		plans: deploy('IN_PROGRESS', [['app', 'ERROR']]),
		outcome: 'running',
		states: {'deploy/main/app': 'retrying'},
	},
	{
		name: 'complete',
		cites: `${kudoCli}:343 (done only on IsFinished = COMPLETE)`,
		plans: deploy('COMPLETE', [['app', 'COMPLETE']]),
		outcome: 'succeeded',
		exitCode: 0,
	},
	{
		name: 'fatal-with-left-over-steps',
		cites: `${engine}:187-191 (a fatal error sets step, phase and plan FATAL_ERROR and returns: the parallel step still IN_PROGRESS and the PENDING one never move)`,
		plans: {
			deploy: {
				status: 'FATAL_ERROR',
				uid: 'u1',
				updatedAt: updated,
				phases: [
					{name: 'main', status: 'FATAL_ERROR', steps: [['app', 'FATAL_ERROR'], ['sidecar', 'IN_PROGRESS']]},
					{name: 'post', status: 'PENDING', steps: [['smoke', 'PENDING']]},
				],
			},
		},
		// planwatch fails at once; `plan status --wait` never ends (kudo.go:343 IsFinished is COMPLETE only).
		outcome: 'failed',
		exitCode: 1,
		states: {'deploy/main/sidecar': 'stopped', 'deploy/post': 'stopped', 'deploy/post/smoke': 'stopped', 'deploy/main/app': 'failed'},
	},
	{
		name: 'missing-plan-status-fatal',
		cites: `${engine}:187-191 (FATAL_ERROR is written to step, phase and plan together: a plan without its status but with a FATAL_ERROR phase failed)`,
		plans: deploy('', [['app', 'FATAL_ERROR']], 'FATAL_ERROR'),
		outcome: 'failed',
		exitCode: 1,
		states: {deploy: 'failed'},
		summaryHas: ['plan status missing'],
	},
	{
		name: 'missing-plan-status-running',
		cites: `${types}:210-222 (a phase IN_PROGRESS: the plan is running)`,
		plans: deploy('', [['app', 'COMPLETE'], ['init', 'IN_PROGRESS']], 'IN_PROGRESS'),
		outcome: 'running',
		states: {deploy: 'running'},
		summaryHas: ['plan status missing'],
	},
	{
		name: 'trigger-race-queued',
		cites: `${controller}:510-524, :603 (a plan is new only when spec.planExecution.uid differs from its status uid)`,
		planExecution: {planName: 'backup', uid: 'u-new'},
		plans: {...deploy('COMPLETE', [['app', 'COMPLETE']]), backup: {status: 'COMPLETE', uid: 'u-old', updatedAt: updated, phases: [{name: 'b', status: 'COMPLETE', steps: [['dump', 'COMPLETE']]}]}},
		outcome: 'running',
		active: 'backup',
		summaryHas: ['waiting for the controller'],
	},
	{
		name: 'trigger-race-snapshot',
		cites: `${kudoCli}:321-335 (plan trigger --wait: not done until some plan's uid changed from the snapshot)`,
		// The webhook cleared planExecution (pkg/webhook/instance_admission.go:315-319) but backup's uid is the old run's.
		plans: {
			...deploy('COMPLETE', [['app', 'COMPLETE']]),
			backup: {status: 'COMPLETE', uid: 'u-old', updatedAt: '2026-01-01T10:06:00Z', phases: [{name: 'b', status: 'COMPLETE', steps: [['dump', 'COMPLETE']]}]},
		},
		baseline: {
			planExecution: {planName: 'backup', uid: 'u-new'},
			plans: {
				...deploy('COMPLETE', [['app', 'COMPLETE']]),
				backup: {status: 'COMPLETE', uid: 'u-old', updatedAt: updated, phases: [{name: 'b', status: 'COMPLETE', steps: [['dump', 'COMPLETE']]}]},
			},
		},
		outcome: 'succeeded',
		active: 'backup',
	},
	{
		name: 'tie',
		cites: `${helpers}:40-60 (GetLastExecutedPlanStatus walks a Go map: equal timestamps pick any plan; with nothing else to order them planwatch says it cannot tell, stands for the failed ` +
			'one, and never exits 0)',
		plans: {
			update: {status: 'FATAL_ERROR', uid: 'u2', updatedAt: updated, phases: [{name: 'u', status: 'FATAL_ERROR', steps: [['s', 'FATAL_ERROR']]}]},
			backup: {status: 'COMPLETE', uid: 'u3', updatedAt: updated, phases: [{name: 'b', status: 'COMPLETE', steps: [['dump', 'COMPLETE']]}]},
		},
		outcome: 'failed',
		exitCode: 1,
		active: 'update',
	},
	{
		name: 'running-beats-newer',
		cites: `${helpers}:29-37, :44-47 (a plan in progress is the last executed plan whatever the timestamps)`,
		plans: {
			deploy: {status: 'IN_PROGRESS', uid: 'u1', updatedAt: '2026-01-01T10:00:00Z', phases: [{name: 'main', status: 'IN_PROGRESS', steps: [['app', 'IN_PROGRESS']]}]},
			backup: {status: 'COMPLETE', uid: 'u3', updatedAt: updated, phases: [{name: 'b', status: 'COMPLETE', steps: [['dump', 'COMPLETE']]}]},
		},
		outcome: 'running',
		active: 'deploy',
	},
	{
		name: 'never-run',
		cites: 'pkg/kudoctl/cmd/plan/plan_status.go:77-81 ("No plan ever run for instance")',
		plans: {deploy: {status: 'NEVER_RUN', phases: [{name: 'main', status: 'NEVER_RUN', steps: [['app', 'NEVER_RUN']]}]}},
		outcome: 'unknown',
		exitCode: 0,
	},
];

export function instanceOf(k: Pick<KudoCase, 'planExecution' | 'plans'>, name: string): KubeObject {
	const planStatus: Record<string, unknown> = {};
	for (const [plan, p] of Object.entries(k.plans)) {
		planStatus[plan] = {
			name: plan,
			status: p.status,
			...(p.uid ? {uid: p.uid} : {}),
			...(p.updatedAt ? {lastUpdatedTimestamp: p.updatedAt} : {}),
			phases: p.phases.map(ph => ({name: ph.name, status: ph.status, steps: ph.steps.map(([n, s]) => ({name: n, status: s}))})),
		};
	}

	return {
		apiVersion: 'kudo.dev/v1beta1',
		kind: 'Instance',
		metadata: {name, namespace, uid: `uid-${name}`, creationTimestamp: '2026-01-01T09:00:00Z'},
		spec: {operatorVersion: {name: 'op-1.0.0'}, ...(k.planExecution ? {planExecution: k.planExecution} : {})},
		status: {planStatus},
	};
}
