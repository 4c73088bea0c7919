from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'macros.md.j2'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_components_table = l_0_scoring_table = l_0_card_counts = l_0_dice_faces = l_0_tile_table = l_0_md_table = l_0_example = l_0_picture = missing
    try:
        t_1 = environment.filters['cell']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'cell' found.")
    try:
        t_2 = environment.filters['first']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'first' found.")
    try:
        t_3 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    try:
        t_4 = environment.filters['kind']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'kind' found.")
    try:
        t_5 = environment.filters['list']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No filter named 'list' found.")
    try:
        t_6 = environment.filters['map']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No filter named 'map' found.")
    try:
        t_7 = environment.filters['rejectattr']
    except KeyError:
        @internalcode
        def t_7(*unused):
            raise TemplateRuntimeError("No filter named 'rejectattr' found.")
    try:
        t_8 = environment.filters['string']
    except KeyError:
        @internalcode
        def t_8(*unused):
            raise TemplateRuntimeError("No filter named 'string' found.")
    try:
        t_9 = environment.filters['urlencode']
    except KeyError:
        @internalcode
        def t_9(*unused):
            raise TemplateRuntimeError("No filter named 'urlencode' found.")
    try:
        t_10 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_10(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
    pass
    def macro(l_1_items):
        t_11 = []
        l_1_words = resolve('words')
        l_1_components = resolve('components')
        if l_1_items is missing:
            l_1_items = None
        pass
        t_11.extend((
            '| ',
            str(environment.finalize(environment.getitem((undefined(name='words') if l_1_words is missing else l_1_words), 'table.component'))),
            ' | ',
            str(environment.finalize(environment.getitem((undefined(name='words') if l_1_words is missing else l_1_words), 'table.kind'))),
            ' | ',
            str(environment.finalize(environment.getitem((undefined(name='words') if l_1_words is missing else l_1_words), 'table.count'))),
            ' |\n|:--|:--|--:|\n',
        ))
        for l_2_c in environment.call(context, environment.counted_loop, ((undefined(name='components') if l_1_components is missing else l_1_components) if t_10(l_1_items) else l_1_items)):
            _loop_vars = {}
            pass
            t_11.extend((
                '| ',
                str(environment.finalize(t_1(environment.getattr(l_2_c, 'name')))),
                ' | ',
                str(environment.finalize(t_4(environment.getattr(l_2_c, 'kind')))),
                ' | ',
                str(environment.finalize(environment.getattr(l_2_c, 'count'))),
                ' |\n',
            ))
        l_2_c = missing
        return concat(t_11)
    context.exported_vars.add('components_table')
    context.vars['components_table'] = l_0_components_table = Macro(environment, macro, 'components_table', ('items',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_name, l_1_key_header, l_1_value_header):
        t_12 = []
        l_1_table = resolve('table')
        l_1_words = resolve('words')
        l_1_rows = missing
        if l_1_name is missing:
            l_1_name = undefined("parameter 'name' was not provided", name='name')
        if l_1_key_header is missing:
            l_1_key_header = None
        if l_1_value_header is missing:
            l_1_value_header = None
        pass
        l_1_rows = environment.call(context, (undefined(name='table') if l_1_table is missing else l_1_table), l_1_name)
        t_12.extend((
            '| ',
            str(environment.finalize((environment.getitem((undefined(name='words') if l_1_words is missing else l_1_words), 'table.route-length') if t_10(l_1_key_header) else l_1_key_header))),
            ' |',
        ))
        for l_2_key in environment.call(context, environment.counted_loop, (undefined(name='rows') if l_1_rows is missing else l_1_rows)):
            _loop_vars = {}
            pass
            t_12.extend((
                ' ',
                str(environment.finalize(l_2_key)),
                ' |',
            ))
        l_2_key = missing
        t_12.append(
            '\n|:--|',
        )
        for l_2_key in environment.call(context, environment.counted_loop, (undefined(name='rows') if l_1_rows is missing else l_1_rows)):
            _loop_vars = {}
            pass
            t_12.append(
                ':-:|',
            )
        l_2_key = missing
        t_12.extend((
            '\n| ',
            str(environment.finalize((environment.getitem((undefined(name='words') if l_1_words is missing else l_1_words), 'table.points') if t_10(l_1_value_header) else l_1_value_header))),
            ' |',
        ))
        for l_2_key in environment.call(context, environment.counted_loop, (undefined(name='rows') if l_1_rows is missing else l_1_rows)):
            _loop_vars = {}
            pass
            t_12.extend((
                ' ',
                str(environment.finalize(environment.getitem((undefined(name='rows') if l_1_rows is missing else l_1_rows), l_2_key))),
                ' |',
            ))
        l_2_key = missing
        return concat(t_12)
    context.exported_vars.add('scoring_table')
    context.vars['scoring_table'] = l_0_scoring_table = Macro(environment, macro, 'scoring_table', ('name', 'key_header', 'value_header'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_deck_id, l_1_field, l_1_header, l_1_unit):
        t_13 = []
        l_1_deck = resolve('deck')
        l_1_words = resolve('words')
        l_1_tally = resolve('tally')
        l_1_d = missing
        if l_1_deck_id is missing:
            l_1_deck_id = undefined("parameter 'deck_id' was not provided", name='deck_id')
        if l_1_field is missing:
            l_1_field = undefined("parameter 'field' was not provided", name='field')
        if l_1_header is missing:
            l_1_header = None
        if l_1_unit is missing:
            l_1_unit = None
        pass
        l_1_d = environment.call(context, (undefined(name='deck') if l_1_deck is missing else l_1_deck), l_1_deck_id)
        t_13.extend((
            '| ',
            str(environment.finalize((environment.getitem((undefined(name='words') if l_1_words is missing else l_1_words), 'table.value') if t_10(l_1_header) else l_1_header))),
            ' | ',
            str(environment.finalize((environment.getitem((undefined(name='words') if l_1_words is missing else l_1_words), 'table.cards') if t_10(l_1_unit) else l_1_unit))),
            ' |\n|:--|--:|\n',
        ))
        for (l_2_value, l_2_count) in environment.call(context, environment.counted_loop, environment.call(context, (undefined(name='tally') if l_1_tally is missing else l_1_tally), l_1_deck_id, l_1_field)):
            _loop_vars = {}
            pass
            t_13.extend((
                '| ',
                str(environment.finalize(t_1(l_2_value))),
                ' | ',
                str(environment.finalize(l_2_count)),
                ' |\n',
            ))
        l_2_value = l_2_count = missing
        t_13.extend((
            '| **',
            str(environment.finalize(environment.getitem((undefined(name='words') if l_1_words is missing else l_1_words), 'table.total'))),
            '** | **',
            str(environment.finalize(environment.getattr((undefined(name='d') if l_1_d is missing else l_1_d), 'size'))),
            '** |',
        ))
        return concat(t_13)
    context.exported_vars.add('card_counts')
    context.vars['card_counts'] = l_0_card_counts = Macro(environment, macro, 'card_counts', ('deck_id', 'field', 'header', 'unit'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_id, l_1_header, l_1_unit):
        t_14 = []
        l_1_words = resolve('words')
        l_1_die_faces = resolve('die_faces')
        if l_1_id is missing:
            l_1_id = undefined("parameter 'id' was not provided", name='id')
        if l_1_header is missing:
            l_1_header = None
        if l_1_unit is missing:
            l_1_unit = None
        pass
        t_14.extend((
            '| ',
            str(environment.finalize((environment.getitem((undefined(name='words') if l_1_words is missing else l_1_words), 'table.face') if t_10(l_1_header) else l_1_header))),
            ' | ',
            str(environment.finalize((environment.getitem((undefined(name='words') if l_1_words is missing else l_1_words), 'table.sides') if t_10(l_1_unit) else l_1_unit))),
            ' |\n|:--|--:|\n',
        ))
        for (l_2_label, l_2_sides) in environment.call(context, environment.counted_loop, environment.call(context, (undefined(name='die_faces') if l_1_die_faces is missing else l_1_die_faces), l_1_id)):
            _loop_vars = {}
            pass
            t_14.extend((
                '| ',
                str(environment.finalize(t_1(l_2_label))),
                ' | ',
                str(environment.finalize(l_2_sides)),
                ' |\n',
            ))
        l_2_label = l_2_sides = missing
        return concat(t_14)
    context.exported_vars.add('dice_faces')
    context.vars['dice_faces'] = l_0_dice_faces = Macro(environment, macro, 'dice_faces', ('id', 'header', 'unit'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_id, l_1_headers):
        t_15 = []
        l_1_words = resolve('words')
        l_1_stacks = resolve('stacks')
        if l_1_id is missing:
            l_1_id = undefined("parameter 'id' was not provided", name='id')
        if l_1_headers is missing:
            l_1_headers = None
        pass
        l_1_headers = (environment.call(context, environment.bounded_literal, [environment.getitem((undefined(name='words') if l_1_words is missing else l_1_words), 'table.tile'), environment.getitem((undefined(name='words') if l_1_words is missing else l_1_words), 'table.condition'), environment.getitem((undefined(name='words') if l_1_words is missing else l_1_words), 'table.tiles'), environment.getitem((undefined(name='words') if l_1_words is missing else l_1_words), 'table.tile-points')]) if t_10(l_1_headers) else l_1_headers)
        t_15.append(
            '|',
        )
        for l_2_h in environment.call(context, environment.counted_loop, l_1_headers):
            _loop_vars = {}
            pass
            t_15.extend((
                ' ',
                str(environment.finalize(l_2_h)),
                ' |',
            ))
        l_2_h = missing
        t_15.append(
            '\n|:--|:--|--:|:-:|\n',
        )
        for l_2_s in environment.call(context, environment.counted_loop, environment.call(context, (undefined(name='stacks') if l_1_stacks is missing else l_1_stacks), l_1_id)):
            _loop_vars = {}
            pass
            t_15.extend((
                '| ',
                str(environment.finalize(t_1(environment.getattr(l_2_s, 'title')))),
                ' | ',
                str(environment.finalize(t_1(environment.getattr(l_2_s, 'text')))),
                ' | ',
                str(environment.finalize(environment.getattr(l_2_s, 'count'))),
                ' | ',
                str(environment.finalize(t_3(context.eval_ctx, environment.getitem(l_2_s, 'values'), environment.getitem((undefined(name='words') if l_1_words is missing else l_1_words), 'punct.values')))),
                ' |\n',
            ))
        l_2_s = missing
        return concat(t_15)
    context.exported_vars.add('tile_table')
    context.vars['tile_table'] = l_0_tile_table = Macro(environment, macro, 'tile_table', ('id', 'headers'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_headers, l_1_rows, l_1_columns, l_1_align):
        t_16 = []
        if l_1_headers is missing:
            l_1_headers = undefined("parameter 'headers' was not provided", name='headers')
        if l_1_rows is missing:
            l_1_rows = undefined("parameter 'rows' was not provided", name='rows')
        if l_1_columns is missing:
            l_1_columns = None
        if l_1_align is missing:
            l_1_align = None
        pass
        t_16.append(
            '|',
        )
        for l_2_h in environment.call(context, environment.counted_loop, l_1_headers):
            _loop_vars = {}
            pass
            t_16.extend((
                ' ',
                str(environment.finalize(t_1(l_2_h))),
                ' |',
            ))
        l_2_h = missing
        t_16.append(
            '\n|',
        )
        l_2_loop = missing
        for l_2_h, l_2_loop in LoopContext(environment.call(context, environment.counted_loop, l_1_headers), undefined):
            _loop_vars = {}
            pass
            t_16.extend((
                str(environment.finalize((environment.getitem(l_1_align, environment.getattr(l_2_loop, 'index0')) if l_1_align else ':--'))),
                '|',
            ))
        l_2_loop = l_2_h = missing
        t_16.append(
            '\n',
        )
        for l_2_row in environment.call(context, environment.counted_loop, l_1_rows):
            _loop_vars = {}
            pass
            if t_10(l_1_columns):
                pass
                t_16.append(
                    '|',
                )
                for l_3_value in environment.call(context, environment.counted_loop, l_2_row, _loop_vars=_loop_vars):
                    _loop_vars = {}
                    pass
                    t_16.extend((
                        ' ',
                        str(environment.finalize(t_1(l_3_value))),
                        ' |',
                    ))
                l_3_value = missing
                t_16.append(
                    '\n',
                )
            else:
                pass
                t_16.append(
                    '|',
                )
                for l_3_column in environment.call(context, environment.counted_loop, l_1_columns, _loop_vars=_loop_vars):
                    _loop_vars = {}
                    pass
                    t_16.extend((
                        ' ',
                        str(environment.finalize(t_1(t_2(environment, t_6(context, environment.call(context, environment.bounded_literal, [l_2_row], _loop_vars=_loop_vars), attribute=l_3_column))))),
                        ' |',
                    ))
                l_3_column = missing
                t_16.append(
                    '\n',
                )
        l_2_row = missing
        return concat(t_16)
    context.exported_vars.add('md_table')
    context.vars['md_table'] = l_0_md_table = Macro(environment, macro, 'md_table', ('headers', 'rows', 'columns', 'align'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_kind, l_1_a, l_1_b, l_1_at, l_1_type, l_1_sections, l_1_route, l_1_houses, l_1_tracks, l_1_length, l_1_caption):
        t_17 = []
        l_1_pairs = missing
        if l_1_kind is missing:
            l_1_kind = undefined("parameter 'kind' was not provided", name='kind')
        if l_1_a is missing:
            l_1_a = None
        if l_1_b is missing:
            l_1_b = None
        if l_1_at is missing:
            l_1_at = None
        if l_1_type is missing:
            l_1_type = None
        if l_1_sections is missing:
            l_1_sections = None
        if l_1_route is missing:
            l_1_route = None
        if l_1_houses is missing:
            l_1_houses = None
        if l_1_tracks is missing:
            l_1_tracks = None
        if l_1_length is missing:
            l_1_length = None
        if l_1_caption is missing:
            l_1_caption = None
        pass
        l_1_pairs = t_5(context.eval_ctx, t_7(context, environment.call(context, environment.bounded_literal, [environment.call(context, environment.bounded_literal, ('a', l_1_a)), environment.call(context, environment.bounded_literal, ('b', l_1_b)), environment.call(context, environment.bounded_literal, ('at', l_1_at)), environment.call(context, environment.bounded_literal, ('type', l_1_type)), environment.call(context, environment.bounded_literal, ('sections', l_1_sections)), environment.call(context, environment.bounded_literal, ('route', l_1_route)), environment.call(context, environment.bounded_literal, ('houses', l_1_houses)), environment.call(context, environment.bounded_literal, ('tracks', l_1_tracks)), environment.call(context, environment.bounded_literal, ('length', l_1_length))]), '1', 'none'))
        t_17.extend((
            '![',
            str(environment.finalize((l_1_caption if (not t_10(l_1_caption)) else ''))),
            '](example:',
            str(environment.finalize(l_1_kind)),
        ))
        if (undefined(name='pairs') if l_1_pairs is missing else l_1_pairs):
            pass
            t_17.append(
                '?',
            )
            l_2_loop = missing
            for (l_2_k, l_2_v), l_2_loop in LoopContext(environment.call(context, environment.counted_loop, (undefined(name='pairs') if l_1_pairs is missing else l_1_pairs)), undefined):
                _loop_vars = {}
                pass
                t_17.extend((
                    str(environment.finalize(l_2_k)),
                    '=',
                    str(environment.finalize(t_9(t_8(l_2_v)))),
                ))
                if (not environment.getattr(l_2_loop, 'last')):
                    pass
                    t_17.append(
                        '&',
                    )
            l_2_loop = l_2_k = l_2_v = missing
        t_17.append(
            ')',
        )
        return concat(t_17)
    context.exported_vars.add('example')
    context.vars['example'] = l_0_example = Macro(environment, macro, 'example', ('kind', 'a', 'b', 'at', 'type', 'sections', 'route', 'houses', 'tracks', 'length', 'caption'), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_id, l_1_caption, l_1_faces):
        t_18 = []
        l_1_component = resolve('component')
        l_1_words = resolve('words')
        l_1_c = missing
        if l_1_id is missing:
            l_1_id = undefined("parameter 'id' was not provided", name='id')
        if l_1_caption is missing:
            l_1_caption = None
        if l_1_faces is missing:
            l_1_faces = None
        pass
        l_1_c = environment.call(context, (undefined(name='component') if l_1_component is missing else l_1_component), l_1_id)
        t_18.extend((
            '![',
            str(environment.finalize((l_1_caption if (not t_10(l_1_caption)) else environment.call(context, environment.bounded_concat, [environment.getattr((undefined(name='c') if l_1_c is missing else l_1_c), 'name'), environment.getitem((undefined(name='words') if l_1_words is missing else l_1_words), 'punct.open'), environment.getattr((undefined(name='c') if l_1_c is missing else l_1_c), 'count'), environment.getitem((undefined(name='words') if l_1_words is missing else l_1_words), 'punct.close')])))),
            '](component:',
            str(environment.finalize(l_1_id)),
        ))
        if l_1_faces:
            pass
            t_18.extend((
                '?faces=',
                str(environment.finalize(l_1_faces)),
            ))
        t_18.append(
            ')',
        )
        return concat(t_18)
    context.exported_vars.add('picture')
    context.vars['picture'] = l_0_picture = Macro(environment, macro, 'picture', ('id', 'caption', 'faces'), False, False, False, context.eval_ctx.autoescape)

blocks = {}
debug_info = '9=72&10=81&12=88&13=93&19=104&20=116&21=119&23=134&25=143&31=158&32=173&33=176&35=181&36=186&38=194&42=202&43=215&45=220&46=225&51=234&52=243&54=247&57=259&58=264&65=277&66=291&68=304&70=315&71=318&72=323&75=340&86=356&87=382&88=385&91=416&92=428&93=431'

# Generated by `python tools/rules_macros.py` from templates/rules/macros.md.j2: do not edit. Jinja's code
# of the template, run by generator.load.rules (``OwnMacros``) when the template has this SHA-1; never
# imported.
# ruff: noqa
TEMPLATE_SHA1 = 'sha1:5321be1aad614c6a48aee0b4d6ad4cf285d9e111'
JINJA = 'jinja2 3.1.6'
