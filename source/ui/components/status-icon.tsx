import {Text} from 'ink';
import type {NodeState} from '../../model/plan-tree.js';
import {roleOf} from '../theme.js';
import {useTheme} from '../theme-context.js';
import {Spinner} from './spinner.js';

/** The icon of a state in its role's colour; running nodes spin (Unicode mode only). */
export function StatusIcon({state}: {readonly state: NodeState}) {
	const theme = useTheme();
	const style = theme.style(roleOf(state));
	return <Text {...style}>{state === 'running' && theme.spinner ? <Spinner /> : theme.icon(state)}</Text>;
}
