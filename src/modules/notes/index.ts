import type { CoreModule } from '../module';
import { Comment, Note } from './note.entity';
import { COMMENT_RESOURCE, CommentFieldsResolver, NOTE_PARENT_RESOLVERS, NOTE_RESOURCE, NoteFieldsResolver } from './note.resolver';

/** Notes (v3 activities), their comments and conversations (notes on a deal). */
export const notesModule: CoreModule = {
  name: 'notes',
  entities: [Note, Comment],
  resolvers: [NOTE_RESOURCE.resolver, COMMENT_RESOURCE.resolver, NoteFieldsResolver, CommentFieldsResolver, ...NOTE_PARENT_RESOLVERS],
};
