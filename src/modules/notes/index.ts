import type { CoreModule } from '../module';
import { Comment, Note } from './note.entity';
import { CommentFieldsResolver, NoteFieldsResolver, NoteResolver, NOTE_PARENT_RESOLVERS } from './note.resolver';

/** Notes (v3 activities), their comments and conversations (notes on a deal). */
export const notesModule: CoreModule = {
  name: 'notes',
  entities: [Note, Comment],
  resolvers: [NoteResolver, NoteFieldsResolver, CommentFieldsResolver, ...NOTE_PARENT_RESOLVERS],
};
