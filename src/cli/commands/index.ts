/** Every CLI verb (design §7); one file per verb beside this one. */
import type { CommandModule } from 'yargs';

export const commands: CommandModule<object, any>[] = [];
