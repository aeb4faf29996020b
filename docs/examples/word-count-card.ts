// The example card of docs/guide/add-a-tool.md: word_count's card shows the counts after its header and,
// expanded, the result's last line. A tool from outside the tree (a plugin's, an example's) registers its
// card like this; a built-in tool adds the same entry to the registry map in
// components/transcript/tool-cards.ts. test/docs/examples.test.ts renders it.
import { tailLines } from '../../components/transcript/card-previews.js';
import { registerToolCard } from '../../components/transcript/tool-cards.js';

registerToolCard('word_count', {
  // "notes.txt: 2 lines, 5 words" -> "2 lines, 5 words"
  summary: (item) => (item.status === 'success' ? item.result?.split(': ').slice(1).join(': ') : undefined),
  body: (item, width, theme) => tailLines(item.result ?? '', width, theme, 1),
});
