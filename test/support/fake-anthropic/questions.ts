// The question Claude asks in the scenarios that exercise AskUserQuestion (recorded fixtures,
// the decision driver, the bot): one question, two options, and the person may type their own.

export const COLOR_QUESTION = {
  questions: [
    {
      question: "Which color should the button be?",
      header: "Color",
      multiSelect: false,
      options: [
        { label: "Blue", description: "The brand color" },
        { label: "Green", description: "Signals success" },
      ],
    },
  ],
};
