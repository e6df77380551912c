import {Box, Text} from 'ink';
import type {Diagnosis} from '../../model/diagnosis.js';
import {fitParts, singleLine} from '../cell-text.js';
import {useTheme} from '../theme-context.js';
import {whyLines} from '../why-lines.js';
import {Line} from './line.js';

type WhyPaneProps = {readonly diagnosis: Diagnosis | undefined; readonly height: number; readonly width: number};

/** Why the selected node is stuck or failed, in exactly `height` lines (see ui/why-lines.ts). */
export function WhyPane({diagnosis, height, width}: WhyPaneProps) {
	const theme = useTheme();
	const lines = whyLines(diagnosis, height);
	if (lines.length === 0) {
		return null;
	}

	return (
		<Box flexDirection="column" height={lines.length} width={width}>
			{lines.map((line, i) => {
				// The text gives way, cut with the theme's marker (--ascii too); the label and the key's hint do not.
				const [label = '', text = '', hint = ''] = fitParts([
					{text: line.label ? `${line.label.padStart(7)}  ` : '         '},
					{text: singleLine(line.text, theme.glyphs.lineBreak), giveWay: 1},
					{text: line.label === 'next' ? '  (y copies)' : ''},
				], width, theme.glyphs.ellipsis);
				return (
					// Lines of one pane, rebuilt together: their place is their identity.
					<Line key={i}>
						<Text {...theme.style('muted')}>{label}</Text>
						<Text {...theme.style(line.role)}>{text}</Text>
						{hint ? <Text {...theme.style('muted')}>{hint}</Text> : undefined}
					</Line>
				);
			})}
		</Box>
	);
}
