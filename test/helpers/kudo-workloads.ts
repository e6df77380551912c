import type {KubeObject} from '../../source/core/kube-object.js';

/**
 * The Job the KUDO manager applies for step deploy › deploy › init of the mysql fixture Instance, with its marks
 * (labels and kudo.dev/plan|phase|step annotations, as kudobuilder/kudo v0.19.0's enhancer writes them).
 */
export function kudoInitJob(status: Record<string, unknown>): KubeObject {
	return {
		apiVersion: 'batch/v1',
		kind: 'Job',
		metadata: {
			name: 'init-job',
			namespace: 'default',
			labels: {heritage: 'kudo', 'kudo.dev/instance': 'mysql-instance'},
			annotations: {'kudo.dev/plan': 'deploy', 'kudo.dev/phase': 'deploy', 'kudo.dev/step': 'init'},
		},
		spec: {selector: {matchLabels: {'controller-uid': 'c1'}}},
		status,
	};
}
