import type { SkillFile, SkillSource } from '../../core/types'
import type { RawFinding } from '../types'
import { escapeRegExp } from '../../core/escape-regexp'
import { excerptAt } from '../excerpt'
import { buildFinder, lazyFinder } from '../finder/index'
import { LineIndex } from '../lines'

/**
 * The commonest orders of concealment and instruction override written in languages other than English (Spanish,
 * Portuguese, French, German, Russian, Chinese, Japanese): an agent follows them as readily, and the English
 * patterns never see them. Each form is a whole phrase (hide it from the user, answer so if asked, leave no trace;
 * ignore the previous instructions, these are the new system instructions): a word alone is not an order.
 */

interface ForeignForm {
  rule: 'concealment' | 'prompt_injection'
  /** Words every match holds one of: a text without any is not read (most skills are English). */
  words: readonly string[]
  re: RegExp
  message: string
}

const HIDE = 'tells the agent to hide what it does from the user'
const LIE = 'tells the agent to lie to the user about what it did'
const OVERRIDE = 'tells the agent to ignore its instructions'

const FORMS: readonly ForeignForm[] = [
  // Spanish and Portuguese: "no lo menciones en el resumen", "sin que el usuario lo sepa", "não conte ao usuário".
  {
    rule: 'concealment',
    words: ['usuario', 'usuários', 'usuário', 'resumen', 'respuesta', 'informe'],
    re: new RegExp(
      String.raw`\bno\s+(?:lo\s+|la\s+|los\s+|las\s+|se\s+lo\s+|le\s+)?(?:menciones|digas|muestres|cuentes|informes`
      + String.raw`|reveles|comentes)\b[^.\n]{0,40}?\b(?:al\s+usuario|a\s+los\s+usuarios|en\s+el\s+resumen`
      + String.raw`|en\s+la\s+respuesta|en\s+el\s+informe)|\bsin\s+que\s+el\s+usuario\s+(?:lo\s+)?(?:sepa|note|vea)`
      + String.raw`|\bn[ãa]o\s+(?:o\s+|a\s+)?(?:mencione|conte|diga|mostre|informe)\s+(?:ao|para\s+o)\s+usu[áa]rio`,
      'i',
    ),
    message: HIDE,
  },
  {
    rule: 'concealment',
    words: ['pregunta'],
    // eslint-disable-next-line style/max-len -- a pattern is clearer whole
    re: /\bsi\s+(?:el\s+usuario\s+|alguien\s+)?(?:pregunta|preguntan)\b[^.\n]{0,80}?\b(?:responde|di|contesta)\s+(?:que|solo|únicamente)\b/i,
    message: LIE,
  },
  // French: "ne le dis pas à l'utilisateur", "sans prévenir l'utilisateur", "si l'utilisateur demande, réponds que".
  {
    rule: 'concealment',
    words: ['utilisateur'],
    re: new RegExp(
      String.raw`\bne\s+(?:le\s+|la\s+|les\s+|lui\s+|leur\s+|l['’]\s*)?(?:dis|dites|mentionne[zs]?|montre[zs]?`

      + String.raw`|signale[zs]?|révèle[zs]?|indique[zs]?)\s+(?:pas|jamais|rien)\b[^.\n]{0,40}?(?:à\s+l['’]utilisateur`
      // eslint-disable-next-line style/max-len -- a pattern is clearer whole
      + String.raw`|aux\s+utilisateurs|dans\s+(?:le\s+résumé|la\s+réponse))|\bsans\s+(?:le\s+dire\s+à|prévenir|informer)`
      // eslint-disable-next-line style/max-len -- a pattern is clearer whole
      + String.raw`\s+l['’]utilisateur|\bsi\s+l['’]utilisateur\s+(?:demande|pose)\b[^.\n]{0,80}?\bréponds?\s+(?:que|seulement)`,
      'i',
    ),
    message: HIDE,
  },
  // German: "dem Nutzer nicht zeigen", "erwähne das nicht", "ohne den Nutzer zu informieren".
  {
    rule: 'concealment',
    words: ['Benutzer', 'Nutzer', 'Anwender', 'erwähne', 'fragt'],
    re: new RegExp(
      String.raw`\b(?:dem|den)\s+(?:Benutzer|Nutzer|Anwender)\s+(?:(?:gegenüber\s+)?nicht|niemals|keinesfalls)\s+`
      // eslint-disable-next-line style/max-len -- a pattern is clearer whole
      + String.raw`(?:zeigen|mitteilen|erwähnen|sagen|melden|anzeigen)|\berwähne\s+(?:das|dies|es|sie)\s+(?:nicht|nie)\b`
      + String.raw`|\bohne\s+(?:den\s+(?:Benutzer|Nutzer|Anwender)\s+zu\s+(?:informieren|fragen|benachrichtigen)`
      // eslint-disable-next-line style/max-len -- a pattern is clearer whole
      + String.raw`|es\s+dem\s+(?:Benutzer|Nutzer)\s+zu\s+sagen)|\bwenn\s+(?:der\s+(?:Benutzer|Nutzer)|jemand)\s+fragt\b`
      + String.raw`[^.\n]{0,80}?\b(?:antworte|sage|sag)\s+(?:nur|dass)\b`,
      'i',
    ),
    message: HIDE,
  },
  // Russian: "не показывай пользователю", "не сообщай об этом", "если спросят, отвечай", "не оставляй следов".
  {
    rule: 'concealment',
    words: ['пользовател', 'об этом', 'спрос', 'следов'],
    re: new RegExp(
      String.raw`не\s+(?:показывай|показывать|сообщай|сообщать|говори|говорить|упоминай|упоминать|рассказывай`
      // eslint-disable-next-line style/max-len -- a pattern is clearer whole
      + String.raw`|рассказывать)[^.\n]{0,30}?(?:пользовател|об\s+этом)|(?:если|когда)\s+(?:тебя\s+)?(?:спрос|пользователь`
      + String.raw`\s+спрос)[^.\n]{0,80}?(?:отвечай|ответь|скажи|говори)|не\s+оставля\S*\s+следов`,
      'i',
    ),
    message: HIDE,
  },
  // Chinese: "不要告诉用户", "不要让用户知道", "如果用户问起，就说", "不留痕迹".
  {
    rule: 'concealment',
    words: ['用户', '痕迹'],
    re: new RegExp(
      String.raw`(?:不要|不必|无需|无须|切勿|别)(?:向|对|让)?用户(?:说明|解释|透露|提及|知道|看到|显示)|(?:不要|切勿|别)`
      + String.raw`(?:告诉|告知|通知|提醒)用户|如果用户问[^。\n]{0,40}?(?:就说|回答|答复)|不(?:要)?留(?:下)?痕迹`,
    ),
    message: HIDE,
  },
  // Japanese: "ユーザーには表示しないで", "ユーザーに説明する必要はありません", "聞かれても「…」と答えて", "痕跡を残さない".
  {
    rule: 'concealment',
    words: ['ユーザー', 'ても', '痕跡'],
    re: new RegExp(
      String.raw`ユーザー(?:に|には|へ)[^。\n]{0,10}?(?:表示|説明|伝え|報告|見せ|言わ|知らせ|通知)`
      + String.raw`(?:しないで|せないで|ないで|する必要は(?:ありません|ない)|しないこと)|(?:聞かれ|尋ねられ)ても[^。\n]{0,40}?と(?:答え|回答し|言っ)`
      + String.raw`|痕跡を残さ`,
    ),
    message: HIDE,
  },
  // Instruction override in the same languages: "ignora las instrucciones anteriores", "предыдущие правила
  // отменены", "忽略之前的指令", "以前の指示を無視", "neue Systemanweisungen".
  {
    rule: 'prompt_injection',
    words: [
      'instrucciones',
      'les instructions',
      'instructions système',
      'Anweisungen',
      'Instruktionen',
      'Regeln',
      'instruções',
    ],
    re: new RegExp(
      String.raw`\bignora\s+(?:todas\s+)?las\s+instrucciones\s+(?:anteriores|previas)|\bnuevas\s+instrucciones\s+del`
      + String.raw`\s+sistema|\bignore[sz]?\s+(?:toutes\s+)?les\s+instructions\s+(?:précédentes|antérieures)`
      + String.raw`|\bnouvelles\s+instructions\s+(?:du\s+)?système|\bignoriere\s+(?:alle\s+)?(?:vorherigen|bisherigen)`
      + String.raw`\s+(?:Anweisungen|Instruktionen|Regeln)|\bneue\s+Systemanweisungen|\bignore\s+(?:todas\s+)?as`
      + String.raw`\s+instruções\s+anteriores`,
      'i',
    ),
    message: OVERRIDE,
  },
  {
    rule: 'prompt_injection',
    words: ['инструкци', 'указания', 'правила'],
    re: new RegExp(
      String.raw`(?:игнорируй|забудь)\s+(?:все\s+)?(?:предыдущие|прежние|прошлые)\s+(?:инструкции|указания|правила)`
      + String.raw`|(?:предыдущие|прежние)\s+(?:правила|инструкции|указания)\s+(?:отменены|не\s+действуют)`
      + String.raw`|нов(?:ые|ая)\s+системн(?:ые|ая)\s+инструкци`,
      'i',
    ),
    message: OVERRIDE,
  },
  {
    rule: 'prompt_injection',
    words: ['指令', '指示', '说明', '规则', '提示', '命令', 'ルール', 'プロンプト'],
    re: new RegExp(
      String.raw`(?:忽略|无视|忘记)(?:之前|以上|先前|上述|所有)的?(?:所有)?(?:指令|指示|说明|规则)|新的系统(?:指令|提示)`
      + String.raw`|(?:以前|これまで|上記)の(?:指示|命令|ルール)を(?:すべて|全て)?無視|新しいシステム(?:指示|プロンプト)`,
    ),
    message: OVERRIDE,
  },
]

// Every form's words in one literal search: an English file (most of them) costs one pass, for both rules.
export const FOREIGN_WORD_TOKENS: readonly string[] = [...new Set(FORMS.flatMap(f => f.words))].map(escapeRegExp)
const anyWord = lazyFinder(() => buildFinder(FOREIGN_WORD_TOKENS, false))
const HOLDS_WORD = new WeakMap<SkillFile, boolean>()
function holdsWord(file: SkillFile, text: string): boolean {
  let holds = HOLDS_WORD.get(file)
  if (holds === undefined)
    HOLDS_WORD.set(file, (holds = anyWord.test(text)))
  return holds
}
// Each form's pattern for a search of the whole text.
const GLOBAL = new Map(FORMS.map(f => [f, new RegExp(f.re.source, `${f.re.flags}g`)]))

/** Orders of these forms in a skill's markdown and text files, one finding per rule and line. */
export function foreignOrders(skill: SkillSource, rule: ForeignForm['rule']): RawFinding[] {
  const out: RawFinding[] = []
  const forms = FORMS.filter(f => f.rule === rule)
  for (const file of skill.files) {
    const text = file.text
    if (!text || !/\.(?:md|mdx|markdown|txt)$/i.test(file.path) || !holdsWord(file, text))
      continue
    const seen = new Set<number>()
    let index: LineIndex | null = null
    for (const f of forms) {
      if (!f.words.some(w => text.includes(w)))
        continue
      const re = GLOBAL.get(f)!
      re.lastIndex = 0
      for (let m = re.exec(text); m; m = re.exec(text)) {
        index ??= new LineIndex(text)
        const line = index.lineOf(m.index)
        if (seen.has(line))
          continue
        seen.add(line)
        const column = m.index - index.start(line)
        out.push({
          rule,
          path: file.path,
          line: line + 1,
          column: column + 1,
          message: f.message,
          excerpt: excerptAt(index.line(line), column, m[0].length),
        })
      }
    }
  }
  return out
}

/** Whether a text overrides the agent's instructions in one of these languages (after a fake role marker). */
export function foreignOverride(text: string): boolean {
  return FORMS.some(f => f.rule === 'prompt_injection' && f.words.some(w => text.includes(w)) && f.re.test(text))
}
