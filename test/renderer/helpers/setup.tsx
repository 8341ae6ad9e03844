// Runs before every renderer test file. findBy*/waitFor give up after 1 s by default; a loaded
// CI machine can take longer than that to render the whole app once. They still return as soon
// as what they wait for is there.
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 15_000 });
