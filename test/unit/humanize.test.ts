import { humanize, snakeCase } from '../../rest-facade/response/humanize';

describe('snakeCase', () => {
  it.each([
    ['lastName', 'last_name'],
    ['id', 'id'],
    ['createdAt', 'created_at'],
    ['address1', 'address1'],
    ['phone1Desc', 'phone1_desc'],
    ['workAddress1', 'work_address1'],
    ['imageThumbUrl', 'image_thumb_url'],
    ['URLValue', 'url_value'],
    ['valueInCents', 'value_in_cents'],
    ['already_snake', 'already_snake'],
  ])('%p → %p', (camel, snake) => {
    expect(snakeCase(camel)).toBe(snake);
  });

  it('looks up explicit exceptions first (v3: address_1 but phone1)', () => {
    const exceptions = { address1: 'address_1', workAddress1: 'work_address_1' };
    expect(snakeCase('address1', exceptions)).toBe('address_1');
    expect(snakeCase('workAddress1', exceptions)).toBe('work_address_1');
    expect(snakeCase('phone1', exceptions)).toBe('phone1');
    expect(snakeCase('toString', exceptions)).toBe('to_string');
  });
});

describe('humanize', () => {
  it.each([
    ['last_name', 'Last name'],
    ['base', 'Base'],
    ['company_id', 'Company'],
    ['user_id', 'User'],
    ['id', 'Id'],
    ['custom_label_3', 'Custom label 3'],
    ['_private', 'Private'],
    ['NAME', 'Name'],
    ['', ''],
    ['predefined_contacts_tag_ids', 'Predefined contacts tag ids'],
  ])('%p → %p', (field, human) => {
    expect(humanize(field)).toBe(human);
  });
});
