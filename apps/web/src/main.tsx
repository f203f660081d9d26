import { start } from './boot';

void start();
